import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, randomUUID, webcrypto, X509Certificate } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NATIVE_CERTIFICATE_VALID_DAYS } from '../../src-shared/protocol/limits';
import { DAY_MS } from '../../src-shared/time-units';
import { normalizeFingerprint } from '../../src-shared/verify/sas';

/**
 * This installation's persistent DTLS certificate (docs/protocol.md, "Remembered devices"): the
 * same on every connection, so another device that remembers it knows this one again.
 */
export interface NativeIdentity {
  /**
   * One PEM file holding the certificate and then its private key: node-datachannel reads it as
   * both its certificate file and its key file (OpenSSL skips the block it does not want).
   */
  pemFile: string;
  /** The certificate's SHA-256 fingerprint as SDP announces it, normalized (verify/sas.ts). */
  fingerprint: string;
}

const IDENTITY_FILE = 'identity.pem';
// What browsers generate by default, and what every DTLS stack here speaks.
const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

// Node's WebCrypto is the standard one; its types only differ from the DOM's by name.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[1]);

/**
 * The identity kept in `folder`, created on first use. A damaged file is replaced, and then the
 * devices that remembered this one see a new device. Two programs starting at once share one
 * certificate: the file appears whole, by a hard link that only one of them can make.
 */
export async function loadNativeIdentity(folder: string): Promise<NativeIdentity> {
  const pemFile = join(folder, IDENTITY_FILE);
  const existing = await readIdentity(pemFile);
  if (existing !== undefined) return existing;
  await mkdir(folder, { recursive: true });
  const staging = join(folder, `${IDENTITY_FILE}.${randomUUID()}.tmp`);
  try {
    await writeFile(staging, await newIdentityPem(), { mode: 0o600, flag: 'wx' });
    try {
      await link(staging, pemFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another program made one meanwhile: use it, unless it is the damaged one found above.
      const theirs = await readIdentity(pemFile);
      if (theirs !== undefined) return theirs;
      await rename(staging, pemFile);
    }
  } finally {
    await rm(staging, { force: true });
  }
  const created = await readIdentity(pemFile);
  if (created === undefined) throw new Error(`the new identity in ${pemFile} does not read back`);
  return created;
}

/** The identity in `pemFile`, when it holds a certificate and the private key that matches it. */
async function readIdentity(pemFile: string): Promise<NativeIdentity | undefined> {
  let pem: string;
  try {
    pem = await readFile(pemFile, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const certificate = new X509Certificate(pem);
    if (!certificate.checkPrivateKey(createPrivateKey(pem))) return undefined;
    const fingerprint = normalizeFingerprint('sha-256', certificate.fingerprint256);
    return fingerprint === undefined ? undefined : { pemFile, fingerprint };
  } catch {
    return undefined;
  }
}

/** A fresh self-signed ECDSA P-256 certificate and its PKCS #8 key, as one PEM text. */
async function newIdentityPem(): Promise<string> {
  const keys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    name: 'CN=ferry',
    // A day back, so a peer whose clock runs behind still takes it as valid.
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + NATIVE_CERTIFICATE_VALID_DAYS * DAY_MS),
    keys,
    signingAlgorithm: KEY_ALGORITHM,
  });
  const key = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return `${certificate.toString('pem')}\n${x509.PemConverter.encode(key, 'PRIVATE KEY')}\n`;
}
