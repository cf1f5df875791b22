import { sha256 } from './hash-functions';

/** A sender's file id keeps this many bytes of its SHA-256: 128 bits, 22 characters of base64url. */
export const SENDER_FILE_ID_BYTES = 16;

/** What makes a sent file the same file again: who sends it, and the file as it is now. */
export interface SentFileFacts {
  /** Stands for the sending device: its name (native), a random value the page keeps (browser). */
  device: string;
  /** Absolute path (native) or relative name (browser). */
  path: string;
  size: number;
  /** Modification time in milliseconds since the epoch. */
  modified: number;
}

/**
 * The metadata `id` of a file: the same for the same file from the same device, and new when any
 * fact changes, so a receiver can tell a kept `.part` came from this very file (docs/protocol.md,
 * "Resume"). A hash, so neither the path nor the device is told. Written as the native sender
 * writes it (`src-main/engine/sender-file-id.ts`), so both derive one id from the same facts.
 */
export async function senderFileId(facts: SentFileFacts): Promise<string> {
  const { device, path, size, modified } = facts;
  const text = JSON.stringify(['ferry-file', device, path, size, modified]);
  const digest = await sha256(new TextEncoder().encode(text));
  return base64url(digest.subarray(0, SENDER_FILE_ID_BYTES));
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** RFC 4648 base64url without padding, as Node's `toString('base64url')` writes it. */
export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 3) {
    const chunk = (bytes[at] << 16) | ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0);
    const count = Math.min(3, bytes.length - at) + 1;
    for (let i = 0; i < count; i += 1) text += ALPHABET[(chunk >> (18 - 6 * i)) & 63];
  }
  return text;
}
