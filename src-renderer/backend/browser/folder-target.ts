import type { ResumePoint, SavedFile } from '../../../src-shared/session/save-target';
import type { FileIdentity } from '../../../src-shared/verify/part-sidecar';
import type { Folder } from './folder-access';
import { findKeptFile, sweepKeptParts } from '../../../src-shared/verify/kept-files';
import { recordReceipt } from '../../../src-shared/verify/receipts';
import { folderKeptFiles } from './folder-kept-files';
import { FolderPart } from './folder-part';
import type { SaveTarget } from './save-target';

/** Where a file lands: its folder (created), its own name, and the subfolders leading there. */
interface Place {
  folder: Folder;
  name: string;
  parts: string[];
}

type Staged =
  | {
      kind: 'part';
      part: FolderPart;
      place: Place;
      fileSize: number | null;
      identity?: FileIdentity;
    }
  /** Already there whole from an earlier try, as `name`: committed as it is, never touched. */
  | { kind: 'complete'; place: Place; name: string; identity: FileIdentity };

async function placeOf(root: Folder, path: string): Promise<Place> {
  const parts = path.split('/');
  const name = parts.pop() ?? path;
  let folder = root;
  for (const part of parts) folder = await folder.getDirectoryHandle(part, { create: true });
  return { folder, name, parts };
}

/**
 * A folder the person chose (File System Access API, Chromium): each file is written where its
 * relative path says, creating subfolders, so a sent folder arrives as a folder. Each file is
 * staged as `<name>.part` and moved to its final name once it checks out, never over an existing
 * file (docs/protocol.md, "Per-file sequence"), and resumes from what an earlier try left, as the
 * native receiver does (docs/protocol.md, "Resume"; folder-part.ts says what a browser can keep):
 * a file that may resume gets a receipt on landing, without which it is never found complete.
 */
export function folderTarget(root: Folder): SaveTarget {
  const open = new Map<number, Staged>();
  /** Folders (by relative path) already swept of stale kept parts during this batch. */
  const swept = new Set<string>();

  function staged(index: number): Staged {
    const file = open.get(index);
    if (file === undefined) throw new Error(`file ${index + 1} is not open`);
    return file;
  }

  function part(index: number): FolderPart {
    const file = staged(index);
    if (file.kind !== 'part') throw new Error(`file ${index + 1} is already complete`);
    return file.part;
  }

  const savedAs = (place: Place, name: string): SavedFile => ({
    name: [...place.parts, name].join('/'),
  });

  return {
    label: root.name,
    folder: root.name,

    async open(index, path, fileSize) {
      const place = await placeOf(root, path);
      const created = await FolderPart.create(place.folder, place.name);
      open.set(index, { kind: 'part', part: created, place, fileSize });
    },

    async resume(index, path, fileSize, senderFileId): Promise<ResumePoint> {
      const identity: FileIdentity = { name: path, size: fileSize, senderFileId };
      const place = await placeOf(root, path);
      const folderPath = place.parts.join('/');
      if (!swept.has(folderPath)) {
        swept.add(folderPath);
        await sweepKeptParts(folderKeptFiles(place.folder, place.name), Date.now());
      }
      const inFolder = folderKeptFiles(place.folder, place.name);
      const kept = await findKeptFile(inFolder, place.name, identity);
      if (kept === undefined) {
        const created = await FolderPart.create(place.folder, place.name, identity);
        open.set(index, { kind: 'part', part: created, place, fileSize, identity });
        return { offset: 0, blocks: [] };
      }
      open.set(
        index,
        kept.kind === 'part'
          ? { kind: 'part', part: kept.part, place, fileSize, identity }
          : { kind: 'complete', place, name: kept.name, identity },
      );
      return kept.point;
    },

    write: async (index, bytes) => part(index).write(bytes),

    recordBlock(index, block, digest) {
      const file = open.get(index);
      if (file?.kind === 'part') file.part.recordBlock(block, digest);
    },

    async restart(index) {
      const file = staged(index);
      if (file.kind === 'part') return file.part.restart();
      // The finished file did not match the sender's: it stays, and a new copy arrives beside it.
      const { place, identity } = file;
      const created = await FolderPart.create(place.folder, place.name, identity);
      open.set(index, { kind: 'part', part: created, place, fileSize: identity.size, identity });
    },

    async commit(index) {
      const file = staged(index);
      open.delete(index);
      if (file.kind === 'complete') return savedAs(file.place, file.name);
      let landed: string;
      try {
        landed = await file.part.commit(file.fileSize);
      } catch (error) {
        await file.part.discard();
        throw error;
      }
      if (file.identity !== undefined) {
        await recordReceipt(
          folderKeptFiles(file.place.folder, file.place.name),
          landed,
          file.identity,
        );
      }
      return savedAs(file.place, landed);
    },

    async discard(index, keep) {
      const file = open.get(index);
      open.delete(index);
      if (file?.kind === 'part') await file.part.discard(keep);
    },
  };
}

type DirectoryPicker = (options: {
  mode: 'readwrite';
  id?: string;
}) => Promise<FileSystemDirectoryHandle>;

/** `showDirectoryPicker` where the browser has it (Chromium on desktop, in a secure context). */
export function directoryPicker(): DirectoryPicker | undefined {
  const picker = (globalThis as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  return typeof picker === 'function' ? picker.bind(globalThis) : undefined;
}
