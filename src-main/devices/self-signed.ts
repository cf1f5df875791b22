import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { DAY_MS } from '../../src-shared/time-units';

// What browsers generate by default, and what every DTLS and TLS stack here speaks.
const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

// Node's WebCrypto is the standard one; its types only differ from the DOM's by name.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[1]);

export interface SelfSignedRequest {
  /** The subject and issuer, as in `CN=ferry`. */
  name: string;
  validDays: number;
  extensions?: x509.Extension[];
}

/** The certificate and its PKCS #8 key, each as PEM text. */
export interface SelfSignedPem {
  certificate: string;
  key: string;
}

/** A fresh self-signed ECDSA P-256 certificate and its key. */
export async function newSelfSigned(request: SelfSignedRequest): Promise<SelfSignedPem> {
  const keys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    name: request.name,
    // A day back, so a peer whose clock runs behind still takes it as valid.
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + request.validDays * DAY_MS),
    keys,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: request.extensions,
  });
  const key = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    certificate: certificate.toString('pem'),
    key: x509.PemConverter.encode(key, 'PRIVATE KEY'),
  };
}
