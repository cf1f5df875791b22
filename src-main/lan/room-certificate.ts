import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { LAN_ROOM_CERTIFICATE_VALID_DAYS } from '../../src-shared/signaling/limits';
import { errorMessage } from '../../src-shared/format/error-message';
import { newSelfSigned } from '../devices/self-signed';
import { lanAddresses } from './lan-address';

/**
 * The certificate a LAN room serves HTTPS with (docs/architecture.md, "The LAN room over
 * HTTPS"): self-signed, so a browser warns once, and the person can check its fingerprint
 * against the one the hosting device shows.
 */
export interface RoomCertificate {
  /** The file holding the certificate and then its key. */
  file: string;
  certificate: string;
  key: string;
  /** SHA-256 of the certificate, colon-separated uppercase hex, as browsers show it. */
  fingerprint: string;
}

export const ROOM_CERTIFICATE_FILE = 'lan-room-certificate.pem';

const KEY_BLOCK = /-----BEGIN PRIVATE KEY-----[^]*?-----END PRIVATE KEY-----/;

/** Why a kept certificate cannot serve `names`, or undefined when it can. */
function unfitFor(certificate: X509Certificate, names: readonly string[]): string | undefined {
  if (Date.parse(certificate.validTo) <= Date.now()) return `it expired on ${certificate.validTo}`;
  const missing = names.filter((name) =>
    isIP(name)
      ? certificate.checkIP(name) === undefined
      : certificate.checkHost(name) === undefined,
  );
  return missing.length === 0 ? undefined : `it does not name ${missing.join(', ')}`;
}

type Kept = { certificate: RoomCertificate } | { unusable: string } | { absent: true };

async function readKept(file: string, names: readonly string[]): Promise<Kept> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { absent: true };
    return { unusable: errorMessage(error) };
  }
  try {
    const certificate = new X509Certificate(pem);
    const key = KEY_BLOCK.exec(pem)?.[0];
    if (key === undefined) return { unusable: 'it holds no private key' };
    if (!certificate.checkPrivateKey(createPrivateKey(key))) {
      return { unusable: 'its key is not the certificate’s' };
    }
    const unfit = unfitFor(certificate, names);
    if (unfit !== undefined) return { unusable: unfit };
    const fingerprint = certificate.fingerprint256;
    return { certificate: { file, certificate: certificate.toString(), key, fingerprint } };
  } catch (error) {
    return { unusable: `it does not read as a certificate and key (${errorMessage(error)})` };
  }
}

/**
 * The names a server bound to `host` is reached by, for its certificate: that address, or on a
 * wildcard this machine's loopback names and every LAN address it has now.
 */
export function namesServedOn(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::' && host !== '') return [host];
  return ['localhost', '127.0.0.1', '::1', ...lanAddresses().map(({ address }) => address)];
}

/** The subject alternative names of `names`: IP addresses as such, anything else as a DNS name. */
function alternativeNames(names: readonly string[]): x509.SubjectAlternativeNameExtension {
  return new x509.SubjectAlternativeNameExtension(
    names.map((name): x509.JsonGeneralName => ({ type: isIP(name) ? 'ip' : 'dns', value: name })),
  );
}

async function makeAndKeep(folder: string, file: string, names: readonly string[]): Promise<void> {
  const made = await newSelfSigned({
    name: 'CN=Ferry LAN room',
    validDays: LAN_ROOM_CERTIFICATE_VALID_DAYS,
    extensions: [
      alternativeNames(names),
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  await mkdir(folder, { recursive: true });
  // Whole or not at all: the next start must never find half a key.
  const staging = join(folder, `${ROOM_CERTIFICATE_FILE}.${randomUUID()}.tmp`);
  try {
    await writeFile(staging, `${made.certificate}\n${made.key}\n`, { mode: 0o600, flag: 'wx' });
    await rename(staging, file);
  } finally {
    await rm(staging, { force: true });
  }
}

/**
 * The room's certificate kept in `folder`, made on first use and then kept, so a browser that
 * accepted it once, and a person who noted its fingerprint, meet the same one every time. It names
 * `names` (the addresses the room serves); when a later start needs one it does not name, or it
 * expired, or its file is damaged, a new one replaces it and `log` says why: its fingerprint
 * changes, and browsers warn again.
 */
export async function loadRoomCertificate(
  folder: string,
  names: readonly string[],
  log: (line: string) => void,
): Promise<RoomCertificate> {
  const file = join(folder, ROOM_CERTIFICATE_FILE);
  const kept = await readKept(file, names);
  if ('certificate' in kept) return kept.certificate;
  await makeAndKeep(folder, file, names);
  const made = await readKept(file, names);
  if (!('certificate' in made))
    throw new Error(`the new certificate in ${file} does not read back`);
  if ('unusable' in kept) {
    log(
      `The LAN room certificate in ${file} was replaced because ${kept.unusable}; ` +
        `its new SHA-256 fingerprint is ${made.certificate.fingerprint}.`,
    );
  }
  return made.certificate;
}
