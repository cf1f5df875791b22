import { createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NATIVE_CERTIFICATE_VALID_DAYS } from '../../src-shared/protocol/limits';
import { normalizeFingerprint } from '../../src-shared/verify/sas';
import { newSelfSigned } from './self-signed';

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
  const made = await newSelfSigned({ name: 'CN=ferry', validDays: NATIVE_CERTIFICATE_VALID_DAYS });
  return `${made.certificate}\n${made.key}\n`;
}
