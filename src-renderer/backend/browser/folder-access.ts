import {
  MAX_COLLISION_SUFFIX,
  withCollisionSuffix,
} from '../../../src-shared/names/collision-suffix';

/** What a file in the folder reads as: the part of `File` used here. */
export interface FolderFileContents {
  readonly size: number;
  readonly lastModified: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
  text(): Promise<string>;
}

/** The part of `FileSystemWritableFileStream` used here. */
export interface FolderWritable {
  write(bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  seek(position: number): Promise<void>;
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** The part of `FileSystemFileHandle` used here. */
export interface FolderFile {
  readonly name: string;
  getFile(): Promise<FolderFileContents>;
  createWritable(options?: { keepExistingData?: boolean }): Promise<FolderWritable>;
  /** Renames the file in its folder; it replaces a file already there. Not every browser has it. */
  move?(name: string): Promise<void>;
}

/**
 * The part of `FileSystemDirectoryHandle` used here. The DOM typings lack `keys()` and `move()`,
 * which Chromium has, so a handle is taken through `asFolder`.
 */
export interface Folder {
  readonly name: string;
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<Folder>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FolderFile>;
  removeEntry(name: string): Promise<void>;
  keys(): AsyncIterable<string>;
}

export function asFolder(handle: FileSystemDirectoryHandle): Folder {
  return handle as unknown as Folder;
}

function notFound(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'NotFoundError';
}

/** The file `name` in `folder`, or undefined when there is none (a folder of that name included). */
export async function fileIn(folder: Folder, name: string): Promise<FolderFile | undefined> {
  try {
    return await folder.getFileHandle(name);
  } catch {
    return undefined;
  }
}

/** Whether `name` is taken in `folder`, by a file or a folder. */
export async function taken(folder: Folder, name: string): Promise<boolean> {
  try {
    await folder.getFileHandle(name);
    return true;
  } catch (error) {
    // A folder of that name counts as taken too (TypeMismatchError).
    return !notFound(error);
  }
}

/** `name`, or the first of `name (1)`, `name (2)`… (before `suffix`) not taken in `folder`. */
export async function freeName(folder: Folder, name: string, suffix = ''): Promise<string> {
  for (let n = 0; n <= MAX_COLLISION_SUFFIX; n += 1) {
    const candidate = `${n === 0 ? name : withCollisionSuffix(name, n)}${suffix}`;
    if (!(await taken(folder, candidate))) return candidate;
  }
  throw new Error(`no free name for ${name}`);
}

/** Removes `name` from `folder` if it is there; best effort. */
export async function removeQuietly(folder: Folder, name: string): Promise<void> {
  await folder.removeEntry(name).catch(() => undefined);
}

/** Replaces the whole of `name` in `folder` with `text`, creating it if needed. */
export async function writeText(folder: Folder, name: string, text: string): Promise<void> {
  const writable = await (await folder.getFileHandle(name, { create: true })).createWritable();
  try {
    await writable.write(new TextEncoder().encode(text));
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => undefined);
    throw error;
  }
}
