import { CODE_WORDS } from '../codes/word-list';
import {
  SAS_CONTEXT,
  SAS_DIGEST_BYTES_USED,
  SAS_HEX_PATTERN,
  SAS_NONCE_BYTES,
  SAS_WORD_COUNT,
} from '../protocol/limits';
import { toHex } from './file-digest';
import { sha256 } from './hash-functions';

// The short authentication string (docs/protocol.md, "Verification words"): one implementation
// for every surface, so two Ferry peers that see the same connection show the same words.

/**
 * The two DTLS certificates of one connection as this side sees them, each normalized as
 * `<algorithm lowercase> <HEX UPPERCASE with colons>`: its own, and the one DTLS verified.
 */
export interface PeerFingerprints {
  local: string;
  remote: string;
}

// RFC 8122: `hash-func SP fingerprint`, the fingerprint being hex pairs joined by colons.
const ALGORITHM = /^[a-z0-9-]+$/;
const FINGERPRINT_VALUE = /^[0-9A-F]{2}(?::[0-9A-F]{2})+$/;
const SDP_FINGERPRINT = /^a=fingerprint:(\S+) +(\S+)\s*$/;
const FINGERPRINT_LINE = /^\s*a=fingerprint:/i;

/** One fingerprint in the form the words are derived from; undefined when it is not one. */
export function normalizeFingerprint(algorithm: string, value: string): string | undefined {
  const name = algorithm.trim().toLowerCase();
  const hex = value.trim().toUpperCase();
  return ALGORITHM.test(name) && FINGERPRINT_VALUE.test(hex) ? `${name} ${hex}` : undefined;
}

/**
 * The certificate fingerprint an SDP announces: its first well-formed `a=fingerprint` line,
 * normalized. A remote description says which certificates the peer claims, not which one DTLS
 * used: Firefox completes the handshake against any listed line and keeps them all. So the remote
 * certificate is read from the transport, and from a remote description only where the transport
 * does not tell and the description lists exactly one (docs/protocol.md, "Connection
 * requirement").
 */
export function fingerprintOfSdp(sdp: string): string | undefined {
  for (const line of sdp.split(/\r?\n/)) {
    const match = SDP_FINGERPRINT.exec(line);
    const fingerprint = match && normalizeFingerprint(match[1], match[2]);
    if (fingerprint) return fingerprint;
  }
  return undefined;
}

/** How many `a=fingerprint` lines an SDP carries, at session and media level together. */
export function fingerprintLineCount(sdp: string): number {
  // Counted whether or not each line is well formed: a stack may read one this parser would not.
  return sdp.split(/\r\n|\r|\n/).filter((line) => FINGERPRINT_LINE.test(line)).length;
}

/** A fresh nonce in wire form, from the runtime's secure random source. */
export function newNonce(randomBytes: (count: number) => Uint8Array): string {
  const bytes = randomBytes(SAS_NONCE_BYTES);
  // A source that returns the wrong amount would silently weaken the commitment.
  if (bytes.byteLength !== SAS_NONCE_BYTES) {
    throw new RangeError(
      `the random source gave ${bytes.byteLength} bytes, not ${SAS_NONCE_BYTES}`,
    );
  }
  return toHex(bytes);
}

/**
 * A fresh 32-byte secret to announce beside an extension (`reconnect`'s rejoin secret, `pair`'s
 * share); undefined when the runtime has no random source or a broken one, and then that
 * extension is not offered.
 */
export function newSecretIfAble(
  randomBytes: ((count: number) => Uint8Array) | undefined,
): string | undefined {
  if (randomBytes === undefined) return undefined;
  try {
    return newNonce(randomBytes);
  } catch {
    return undefined;
  }
}

/** What the sender announces before it sees the receiver's nonce: SHA-256 of its own, in hex. */
export async function commitmentTo(nonce: string): Promise<string> {
  return toHex(await sha256(nonceBytes(nonce)));
}

export interface SasInput {
  senderNonce: string;
  receiverNonce: string;
  senderFingerprint: string;
  receiverFingerprint: string;
}

/**
 * Both nonces and this connection's fingerprints in the roles' order, from `role`'s own view:
 * the sender's own certificate is the local one on the sender and the remote one on the receiver.
 */
export function sasInputAs(
  role: 'sender' | 'receiver',
  prints: PeerFingerprints,
  senderNonce: string,
  receiverNonce: string,
): SasInput {
  const [senderFingerprint, receiverFingerprint] =
    role === 'sender' ? [prints.local, prints.remote] : [prints.remote, prints.local];
  return { senderNonce, receiverNonce, senderFingerprint, receiverFingerprint };
}

const utf8 = new TextEncoder();

/**
 * The words both people compare: SHA-256 over the context, both nonces and both fingerprints in
 * the roles' order, read as three words of the code word list.
 */
export async function verificationWords(input: SasInput): Promise<string> {
  const parts = [
    utf8.encode(SAS_CONTEXT),
    nonceBytes(input.senderNonce),
    nonceBytes(input.receiverNonce),
    utf8.encode(`${input.senderFingerprint}\n${input.receiverFingerprint}`),
  ];
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return wordsOfDigest(await sha256(joined));
}

/**
 * The first 6 bytes as one integer n (48 bits, exact in a double), then n mod L, n / L mod L and
 * n / L² mod L as indexes into the word list of length L.
 */
export function wordsOfDigest(digest: Uint8Array): string {
  let n = 0;
  for (const byte of digest.subarray(0, SAS_DIGEST_BYTES_USED)) n = n * 256 + byte;
  const count = CODE_WORDS.length;
  const words: string[] = [];
  for (let i = 0; i < SAS_WORD_COUNT; i += 1) {
    words.push(CODE_WORDS[n % count]);
    n = Math.floor(n / count);
  }
  return words.join(' ');
}

function nonceBytes(nonce: string): Uint8Array {
  if (!SAS_HEX_PATTERN.test(nonce)) throw new RangeError('a nonce is 32 bytes in lowercase hex');
  const bytes = new Uint8Array(SAS_NONCE_BYTES);
  for (let i = 0; i < SAS_NONCE_BYTES; i += 1) {
    bytes[i] = Number.parseInt(nonce.slice(2 * i, 2 * i + 2), 16);
  }
  return bytes;
}
