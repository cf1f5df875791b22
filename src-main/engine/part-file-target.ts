import { basename, dirname, join, relative, sep } from 'node:path';
import type { ResumePoint, SaveTarget, SavedFile } from '../../src-shared/session/save-target';
import { findKeptFile, sweepKeptParts } from '../../src-shared/verify/kept-files';
import { recordReceipt } from '../../src-shared/verify/receipts';
import { diskKeptFiles } from './kept-parts';
import { PartFile, stagingFolder } from './part-file';
import type { FileIdentity } from './part-sidecar';

type Staged =
  | { kind: 'part'; part: PartFile; fileSize: number | null; identity?: FileIdentity }
  /** Already there whole from an earlier try: committed as it is, never touched. */
  | { kind: 'complete'; path: string; identity: FileIdentity };

/**
 * The native save target: each file a `.part` under `destination`, renamed once its byte count
 * checks out (docs/architecture.md, "Ports"), resumable from what an earlier try left
 * (kept-parts.ts), and handed to `markSaved` under its final name (download-mark.ts). A file
 * found already complete from an earlier try is left as it is, unmarked again; one that may
 * resume gets a receipt on landing (src-shared/verify/receipts.ts), without which it is never
 * found complete. Translation only: the order is the session core's.
 */
export function partFileTarget(
  destination: string,
  markSaved: (savedPath: string, name: string) => Promise<void>,
): SaveTarget {
  const open = new Map<number, Staged>();
  const swept = new Set<string>();
  const file = (index: number): Staged => {
    const found = open.get(index);
    if (found === undefined) throw new Error(`file ${index + 1} is not open`);
    return found;
  };
  const part = (index: number): PartFile => {
    const staged = file(index);
    if (staged.kind !== 'part') throw new Error(`file ${index + 1} is already complete`);
    return staged.part;
  };
  const savedAs = (savedPath: string): SavedFile => ({
    name: relative(destination, savedPath).split(sep).join('/'),
    savedPath,
  });
  return {
    folder: destination,
    async open(index, path, fileSize) {
      open.set(index, { kind: 'part', part: await PartFile.create(destination, path), fileSize });
    },
    async resume(index, path, fileSize, senderFileId): Promise<ResumePoint> {
      const identity: FileIdentity = { name: path, size: fileSize, senderFileId };
      const { folder, name } = await stagingFolder(destination, path);
      const inFolder = diskKeptFiles(destination, path, folder);
      if (!swept.has(folder)) {
        swept.add(folder);
        await sweepKeptParts(inFolder, Date.now());
      }
      const kept = await findKeptFile(inFolder, name, identity);
      if (kept === undefined) {
        const created = await PartFile.create(destination, path, identity);
        open.set(index, { kind: 'part', part: created, fileSize, identity });
        return { offset: 0, blocks: [] };
      }
      open.set(
        index,
        kept.kind === 'part'
          ? { kind: 'part', part: kept.part, fileSize, identity }
          : { kind: 'complete', path: join(folder, kept.name), identity },
      );
      return kept.point;
    },
    // The part file batches what piles up and copies each chunk, so nothing holds it afterwards.
    write: async (index, bytes) => part(index).write(bytes),
    recordBlock(index, block, digest) {
      const staged = open.get(index);
      if (staged?.kind === 'part') staged.part.recordBlock(block, digest);
    },
    async restart(index) {
      const staged = file(index);
      if (staged.kind === 'part') return staged.part.restart();
      // The finished file did not match the sender's: it stays, and a new copy arrives beside it.
      const { identity } = staged;
      const created = await PartFile.create(destination, identity.name, identity);
      open.set(index, { kind: 'part', part: created, fileSize: identity.size, identity });
    },
    async commit(index): Promise<SavedFile> {
      const staged = file(index);
      open.delete(index);
      if (staged.kind === 'complete') return savedAs(staged.path);
      let savedPath: string;
      try {
        savedPath = await staged.part.commit(staged.fileSize);
      } catch (error) {
        await staged.part.discard();
        throw error;
      }
      const saved = savedAs(savedPath);
      await markSaved(savedPath, saved.name);
      // After the mark, which may touch the file: the receipt holds it as it now stays.
      if (staged.identity !== undefined) {
        const folder = dirname(savedPath);
        const inFolder = diskKeptFiles(destination, staged.identity.name, folder);
        await recordReceipt(inFolder, basename(savedPath), staged.identity);
      }
      return saved;
    },
    async discard(index, keep) {
      const found = open.get(index);
      open.delete(index);
      if (found?.kind === 'part') await found.part.discard(keep);
    },
  };
}
