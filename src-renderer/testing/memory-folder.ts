import type {
  Folder,
  FolderFile,
  FolderFileContents,
  FolderWritable,
} from '../backend/browser/folder-access';

/**
 * A chosen folder held in memory, behaving as Chromium's File System Access API does where the
 * folder target relies on it (jsdom has none): a writable stream's bytes reach the file only when
 * it is closed, `keepExistingData` starts from the file's bytes, `move` replaces a file of the
 * same name, and a missing entry is a NotFoundError. Modification times come from `clock`;
 * `moves: false` stands for a browser whose handles have no `move`.
 */
export class MemoryFolder implements Folder {
  readonly files = new Map<string, { bytes: Uint8Array; lastModified: number }>();
  readonly folders = new Map<string, MemoryFolder>();

  constructor(
    readonly name: string,
    readonly clock: () => number = () => Date.now(),
    readonly moves = true,
  ) {}

  async getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<MemoryFolder> {
    if (this.files.has(name)) throw new DOMException(name, 'TypeMismatchError');
    let folder = this.folders.get(name);
    if (folder === undefined) {
      if (options?.create !== true) throw new DOMException(name, 'NotFoundError');
      folder = new MemoryFolder(name, this.clock, this.moves);
      this.folders.set(name, folder);
    }
    return folder;
  }

  async getFileHandle(name: string, options?: { create?: boolean }): Promise<FolderFile> {
    if (this.folders.has(name)) throw new DOMException(name, 'TypeMismatchError');
    if (!this.files.has(name)) {
      if (options?.create !== true) throw new DOMException(name, 'NotFoundError');
      this.files.set(name, { bytes: new Uint8Array(), lastModified: this.clock() });
    }
    return new MemoryFile(this, name);
  }

  async removeEntry(name: string): Promise<void> {
    if (!this.files.delete(name) && !this.folders.delete(name)) {
      throw new DOMException(name, 'NotFoundError');
    }
  }

  async *keys(): AsyncIterable<string> {
    yield* [...this.files.keys(), ...this.folders.keys()];
  }

  /** Writes a file at once, as something outside the target would. */
  put(name: string, bytes: Uint8Array | string, lastModified = this.clock()): void {
    const content = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
    this.files.set(name, { bytes: content, lastModified });
  }

  /** A file's bytes, or undefined when there is none. */
  bytes(name: string): Uint8Array | undefined {
    return this.files.get(name)?.bytes;
  }

  text(name: string): string | undefined {
    const bytes = this.bytes(name);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  }

  /** Every file under this folder, `/`-separated, sorted. */
  list(prefix = ''): string[] {
    const names = [...this.files.keys()].map((name) => prefix + name);
    for (const [name, folder] of this.folders) names.push(...folder.list(`${prefix}${name}/`));
    return names.sort();
  }
}

class MemoryFile implements FolderFile {
  #name: string;
  readonly move?: (name: string) => Promise<void>;

  constructor(
    readonly folder: MemoryFolder,
    name: string,
  ) {
    this.#name = name;
    if (folder.moves) this.move = (to) => this.#move(to);
  }

  get name(): string {
    return this.#name;
  }

  async getFile(): Promise<FolderFileContents> {
    const file = this.folder.files.get(this.#name);
    if (file === undefined) throw new DOMException(this.#name, 'NotFoundError');
    return contentsOf(file.bytes, file.lastModified);
  }

  async createWritable(options?: { keepExistingData?: boolean }): Promise<FolderWritable> {
    const file = this.folder.files.get(this.#name);
    if (file === undefined) throw new DOMException(this.#name, 'NotFoundError');
    return new SwapWritable(this, options?.keepExistingData === true ? file.bytes.slice() : null);
  }

  async #move(name: string): Promise<void> {
    const file = this.folder.files.get(this.#name);
    if (file === undefined) throw new DOMException(this.#name, 'NotFoundError');
    this.folder.files.delete(this.#name);
    this.folder.files.set(name, file);
    this.#name = name;
  }
}

/** Bytes staged apart from the file, put in its place on close. */
class SwapWritable implements FolderWritable {
  #swap: Uint8Array;
  #position = 0;
  #done = false;

  constructor(
    readonly file: MemoryFile,
    kept: Uint8Array | null,
  ) {
    this.#swap = kept ?? new Uint8Array();
  }

  async write(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    this.#open();
    const end = this.#position + bytes.byteLength;
    if (end > this.#swap.byteLength) this.#resize(end);
    this.#swap.set(bytes, this.#position);
    this.#position = end;
  }

  async seek(position: number): Promise<void> {
    this.#open();
    this.#position = position;
  }

  async truncate(size: number): Promise<void> {
    this.#open();
    this.#resize(size);
    this.#position = Math.min(this.#position, size);
  }

  async close(): Promise<void> {
    this.#open();
    this.#done = true;
    const { folder, name } = this.file;
    folder.files.set(name, { bytes: this.#swap, lastModified: folder.clock() });
  }

  async abort(): Promise<void> {
    this.#done = true;
  }

  #resize(size: number): void {
    const next = new Uint8Array(size);
    next.set(this.#swap.subarray(0, Math.min(size, this.#swap.byteLength)));
    this.#swap = next;
  }

  #open(): void {
    if (this.#done) throw new TypeError('the stream is closed');
  }
}

function contentsOf(bytes: Uint8Array, lastModified: number): FolderFileContents {
  return {
    size: bytes.byteLength,
    lastModified,
    slice: (start, end) => ({
      arrayBuffer: async () => bytes.slice(start, end).buffer as ArrayBuffer,
    }),
    text: async () => new TextDecoder().decode(bytes),
  };
}
