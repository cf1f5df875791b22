import { relative, sep } from 'node:path';
import type { SaveTarget, SavedFile } from '../../src-shared/session/save-target';
import { PartFile } from './part-file';

/**
 * The native save target: each file a `.part` under `destination`, renamed once its byte count
 * checks out (docs/architecture.md, "Ports"). Translation only: the order is the session core's.
 */
export function partFileTarget(destination: string): SaveTarget {
  const open = new Map<number, { part: PartFile; fileSize: number | null }>();
  const file = (index: number): { part: PartFile; fileSize: number | null } => {
    const found = open.get(index);
    if (found === undefined) throw new Error(`file ${index + 1} is not open`);
    return found;
  };
  return {
    folder: destination,
    async open(index, path, fileSize) {
      open.set(index, { part: await PartFile.create(destination, path), fileSize });
    },
    // The part file batches what piles up and copies each chunk, so nothing holds it afterwards.
    write: async (index, bytes) => file(index).part.write(bytes),
    async commit(index): Promise<SavedFile> {
      const { part, fileSize } = file(index);
      open.delete(index);
      try {
        const savedPath = await part.commit(fileSize);
        return { name: relative(destination, savedPath).split(sep).join('/'), savedPath };
      } catch (error) {
        await part.discard();
        throw error;
      }
    },
    async discard(index) {
      const found = open.get(index);
      open.delete(index);
      await found?.part.discard();
    },
  };
}
