import * as v from 'valibot';
import { RECEIPTS_MAX_BYTES } from '../protocol/limits';
import type { KeptFileFolder, KeptFileReader } from './kept-file-folder';
import type { FileIdentity } from './part-sidecar';

/**
 * A folder's index of the files Ferry received there, one receipt a line (docs/protocol.md,
 * "Resume"). It is what lets a later try skip a file already there whole, and nothing else does:
 * a file Ferry did not write, or one changed since, is never read on a sender's behalf.
 */
export const RECEIPTS_NAME = '.ferry-received';

/** One received file: where it landed in the folder, from which sender file, and as it was then. */
export interface Receipt {
  /** Its own name in the folder, as it landed (`name (1).ext` when the name was taken). */
  name: string;
  /** The sanitized relative path the sender asked for, as the sidecar records it. */
  path: string;
  size: number;
  /** When it last changed, in milliseconds since the epoch, as its folder reported on landing. */
  modified: number;
  id: string;
}

// A name in this folder: never a path, so a receipt cannot point anywhere else.
const LEAF_NAME = v.pipe(
  v.string(),
  v.minLength(1),
  v.check((name) => name !== '.' && name !== '..' && !/[/\\\0]/.test(name)),
);

const RECEIPT = v.object({
  ferry: v.literal('receipt'),
  v: v.literal(1),
  name: LEAF_NAME,
  path: v.string(),
  size: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  modified: v.pipe(v.number(), v.finite()),
  id: v.string(),
});

/**
 * The file in `folder` that Ferry's own receipt says arrived there from `identity` (same path,
 * size and sender file id) and that has neither grown, shrunk nor changed since, open for
 * reading; undefined when there is none. The newest such receipt wins.
 */
export async function findReceived<Part>(
  folder: KeptFileFolder<Part>,
  identity: FileIdentity,
): Promise<{ name: string; file: KeptFileReader } | undefined> {
  const receipts = (await readReceipts(folder, identity.senderFileId)).filter(
    (receipt) =>
      receipt.path === identity.name &&
      receipt.id === identity.senderFileId &&
      receipt.size === identity.size,
  );
  for (const receipt of receipts.reverse()) {
    const file = await folder.open(receipt.name).catch(() => undefined);
    if (file === undefined) continue;
    if (file.size === receipt.size && file.modified === receipt.modified) {
      return { name: receipt.name, file };
    }
    await file.close();
  }
  return undefined;
}

/**
 * Notes in `folder`'s index that `name` there has just been received from `identity`, as it is
 * now. One line is added at the end, so a crash loses at most that line; an index grown past
 * RECEIPTS_MAX_BYTES is rewritten whole, atomically, to its newest half. Best effort: a receipt
 * that cannot be written only costs sending the file again.
 */
export async function recordReceipt<Part>(
  folder: KeptFileFolder<Part>,
  name: string,
  identity: FileIdentity,
): Promise<void> {
  try {
    const landed = await folder.open(name);
    if (landed === undefined) return;
    const { size, modified } = landed;
    await landed.close();
    if (size !== identity.size || size === 0) return;
    const receipt: Receipt = {
      name,
      path: identity.name,
      size,
      modified,
      id: identity.senderFileId,
    };
    const line = receiptLine(receipt);
    const index = await folder.open(RECEIPTS_NAME);
    const indexBytes = index?.size ?? 0;
    await index?.close();
    if (indexBytes + byteLength(line) <= RECEIPTS_MAX_BYTES) {
      await folder.append(RECEIPTS_NAME, line);
      return;
    }
    const kept: string[] = [];
    let bytes = byteLength(line);
    // Newest first, up to half the limit, so the next rewrite is as far away again.
    for (const older of (await readReceipts(folder)).reverse()) {
      if (older.name === name) continue;
      const olderLine = receiptLine(older);
      bytes += byteLength(olderLine);
      if (bytes > RECEIPTS_MAX_BYTES / 2) break;
      kept.unshift(olderLine);
    }
    await folder.replace(RECEIPTS_NAME, [...kept, line].join(''));
  } catch {
    // The file is saved either way; it only cannot be skipped on a later try.
  }
}

/**
 * Every receipt in `folder`'s index that reads with the schema, oldest first; with `id`, only
 * those that may name it (a batch of many files looks up each in an index of as many).
 */
async function readReceipts<Part>(folder: KeptFileFolder<Part>, id?: string): Promise<Receipt[]> {
  const index = await folder.open(RECEIPTS_NAME).catch(() => undefined);
  if (index === undefined) return [];
  let text: string;
  try {
    if (index.size > RECEIPTS_MAX_BYTES) return [];
    text = new TextDecoder().decode(await index.read(0, index.size));
  } catch {
    return [];
  } finally {
    await index.close();
  }
  const receipts: Receipt[] = [];
  // A line a crash cut short, or anything else that does not read, counts for nothing.
  const mention = id === undefined ? '' : JSON.stringify(id);
  for (const line of text.split('\n')) {
    if (!line.includes(mention)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const read = v.safeParse(RECEIPT, parsed);
    if (read.success) {
      const { name, path, size, modified, id } = read.output;
      receipts.push({ name, path, size, modified, id });
    }
  }
  return receipts;
}

/**
 * A receipt's line. It starts with the newline: a line that a crash cut short is then followed by
 * a fresh line, not glued to it.
 */
function receiptLine(receipt: Receipt): string {
  const { name, path, size, modified, id } = receipt;
  return `\n${JSON.stringify({ ferry: 'receipt', v: 1, name, path, size, modified, id })}`;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}
