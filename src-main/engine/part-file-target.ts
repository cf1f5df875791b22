import { join, relative, sep } from 'node:path';
import { resumableTarget } from '../../src-shared/session/resumable-target';
import type { SaveTarget } from '../../src-shared/session/save-target';
import { diskKeptFiles } from './kept-parts';
import { PartFile, stagingFolder } from './part-file';

/**
 * The native save target: the shared resumable target (src-shared/session/resumable-target.ts)
 * over `destination` on disk, each file a `.part` (part-file.ts) in the folder its path names,
 * created without following a link (destination-folder.ts), and handed to `markSaved` under its
 * final name (download-mark.ts). Translation only: what is kept, found and recorded is the
 * shared target's.
 */
export function partFileTarget(
  destination: string,
  markSaved: (savedPath: string, name: string) => Promise<void>,
): SaveTarget {
  return resumableTarget({
    folder: destination,
    async place(path) {
      const { folder, name } = await stagingFolder(destination, path);
      return {
        key: folder,
        name,
        kept: diskKeptFiles(destination, path, folder),
        create: (identity) => PartFile.create(destination, path, identity),
        saved(landed) {
          const savedPath = join(folder, landed);
          return { name: relative(destination, savedPath).split(sep).join('/'), savedPath };
        },
      };
    },
    wallClock: () => Date.now(),
    landed: async ({ savedPath, name }) => {
      if (savedPath !== undefined) await markSaved(savedPath, name);
    },
  });
}
