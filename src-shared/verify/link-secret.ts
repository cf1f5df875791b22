import * as v from 'valibot';
import { LINK_CONTEXT, LINK_SECRET_BYTES, LINK_SECRET_PATTERN } from '../protocol/limits';
import { toHex } from './file-digest';
import { hmacSha256 } from './hash-functions';
import type { SasInput } from './sas';

// The secret link (docs/protocol.md, "Secret link"): a secret the signaling server never sees,
// carried in a receive link's fragment, proven by each side with an HMAC over both DTLS
// fingerprints.

/** Which side a proof comes from; each side's MAC names its own role, so neither can be replayed. */
export type LinkRole = 'sender' | 'receiver';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A link's `key`: 16 bytes in base64url without padding. */
export const LinkSecretSchema = v.pipe(
  v.string(),
  v.regex(LINK_SECRET_PATTERN, 'the key is not 16 bytes in base64url'),
);

/** The secret when `text` is one, else undefined. */
export function readLinkSecret(text: string): string | undefined {
  const reading = v.safeParse(LinkSecretSchema, text);
  return reading.success ? reading.output : undefined;
}

/** A fresh secret in link form, from the runtime's secure random source. */
export function newLinkSecret(randomBytes: (count: number) => Uint8Array): string {
  const bytes = randomBytes(LINK_SECRET_BYTES);
  // A source that returns the wrong amount would silently weaken the secret.
  if (bytes.byteLength !== LINK_SECRET_BYTES) {
    throw new RangeError(
      `the random source gave ${bytes.byteLength} bytes, not ${LINK_SECRET_BYTES}`,
    );
  }
  let text = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      text += BASE64URL[(value >> bits) & 63];
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) text += BASE64URL[(value << (6 - bits)) & 63];
  return text;
}

/** The 16 bytes a secret in link form stands for. */
export function linkSecretBytes(secret: string): Uint8Array {
  if (readLinkSecret(secret) === undefined) {
    throw new RangeError('a link secret is 16 bytes in base64url');
  }
  const bytes = new Uint8Array(LINK_SECRET_BYTES);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of secret) {
    value = (value << 6) | BASE64URL.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at] = (value >> bits) & 255;
      at += 1;
    }
    value &= (1 << bits) - 1;
  }
  return bytes;
}

const utf8 = new TextEncoder();

/** This side's proof, and the one the other side must send, computed from the same input. */
export async function linkProofs(
  secret: string,
  role: LinkRole,
  input: SasInput,
): Promise<{ own: string; expected: string }> {
  const other: LinkRole = role === 'sender' ? 'receiver' : 'sender';
  const [own, expected] = await Promise.all([
    linkProof(secret, role, input),
    linkProof(secret, other, input),
  ]);
  return { own, expected };
}

/**
 * One side's proof: HMAC-SHA256 keyed with the secret over the context, the role, both nonces
 * and both fingerprints in the roles' order, in lowercase hex.
 */
export async function linkProof(secret: string, role: LinkRole, input: SasInput): Promise<string> {
  const message = [
    role,
    input.senderNonce,
    input.receiverNonce,
    input.senderFingerprint,
    input.receiverFingerprint,
  ].join('\n');
  return toHex(await hmacSha256(linkSecretBytes(secret), utf8.encode(LINK_CONTEXT + message)));
}
