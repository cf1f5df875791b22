import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { SendItem } from '../../src-shared/ipc/contract';
import { HandlerError } from '../../src-shared/ipc/dispatch';
import { SessionFailure, listSendFiles } from '../engine';

/** Sizes and file counts of chosen files and folders, listed exactly as a send would list them. */
export async function describePaths(paths: readonly string[]): Promise<SendItem[]> {
  const items: SendItem[] = [];
  for (const given of paths) {
    const path = resolve(given);
    try {
      const files = await listSendFiles([path]);
      items.push({
        path,
        name: basename(path),
        size: files.reduce((sum, file) => sum + file.size, 0),
        isDirectory: (await stat(path)).isDirectory(),
        fileCount: files.length,
      });
    } catch (error) {
      if (error instanceof SessionFailure) throw new HandlerError(error.code, error.message);
      throw error;
    }
  }
  return items;
}
