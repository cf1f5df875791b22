import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A value kept as JSON in one file, read once and written whole on every change. */
export interface JsonFileStore<T> {
  get(): T;
  /**
   * Applies `change` to the value the previous change saved, one change at a time; resolves once
   * the result is on disk. A change that throws, or a failed write, leaves the value as it was.
   */
  update(change: (current: T) => T): Promise<T>;
}

/** Write, fsync, rename: a crash at any point leaves the old file or the new one, never half. */
export async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // Its own name per write, so no other write (of this or another store) can rename it away.
  const staging = `${file}.${randomUUID()}.tmp`;
  try {
    const handle = await open(staging, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(staging, file);
  } catch (error) {
    await rm(staging, { force: true });
    throw error;
  }
}

/**
 * Opens `file`, read through `read` (a schema); a missing or damaged file gives `fallback`, as on
 * first launch.
 */
export async function openJsonFileStore<T>(
  file: string,
  read: (stored: unknown) => T,
  fallback: T,
): Promise<JsonFileStore<T>> {
  let current = fallback;
  try {
    current = read(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    // Missing or unreadable: the fallback stands.
  }
  let queue: Promise<unknown> = Promise.resolve();
  return {
    get: () => current,
    update(change) {
      const saved = queue.then(async () => {
        const next = change(current);
        await writeAtomically(file, `${JSON.stringify(next, null, 2)}\n`);
        current = next;
        return next;
      });
      queue = saved.catch(() => undefined);
      return saved;
    },
  };
}
