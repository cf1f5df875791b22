import { makeZip } from 'client-zip';
import type { SaveTarget } from './save-target';

/** Where the archive's bytes go: one download, written in order, then ended or given up. */
export interface ZipSink {
  write(bytes: Uint8Array): void;
  end(): void;
  abort(reason: string): void;
  /** The person stopped the download in the browser's own download list. */
  readonly cancelled: boolean;
}

const END = Symbol('end');

/** Things handed over in order and taken as they come, until END. */
class Handover<T> {
  readonly #waiting: (T | typeof END)[] = [];
  #wake: (() => void) | undefined;

  put(item: T | typeof END): void {
    this.#waiting.push(item);
    this.#wake?.();
    this.#wake = undefined;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const next = this.#waiting.shift();
      if (next === END) return;
      if (next !== undefined) yield next;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

/** One file of the archive: the bytes written to it, taken by the archive in order. */
class ZipEntry {
  readonly chunks = new Handover<Uint8Array>();
  #taken!: () => void;
  /** Settles once the archive has taken every byte of this file. */
  readonly taken = new Promise<void>((resolve) => (this.#taken = resolve));

  constructor(readonly path: string) {}

  async *bytes(): AsyncGenerator<Uint8Array> {
    yield* this.chunks;
    this.#taken();
  }
}

export interface ZipDownloadOptions {
  /** The archive's name in the browser's downloads. */
  name: string;
  /** The batch's file count: the archive is finished when the last of them is committed. */
  fileCount: number;
  /** What the accept prompt shows under "Save to". */
  label: string;
  /** Starts the one download, when the first file opens. */
  start(name: string): Promise<ZipSink>;
}

/**
 * The whole batch as one `.zip` in the browser's downloads, its folders kept, streamed as it
 * arrives and never held in memory. Files are stored without compression; client-zip switches
 * to zip64 by itself for a file, or an archive, past 4 GiB, from the sizes it counted (its
 * headers defer sizes to a data descriptor). A file cannot be taken back out of a streamed
 * archive, so a discarded one (a failed digest, a cancel) gives up the whole download, which the
 * browser then deletes; a file that did not verify never reaches a finished archive.
 */
export function zipDownloadTarget(options: ZipDownloadOptions): SaveTarget {
  const queue = new Handover<ZipEntry>();
  const open = new Map<number, ZipEntry>();
  let starting: Promise<ZipSink> | undefined;
  let sink: ZipSink | undefined;
  let finished: Promise<void> | undefined;
  let failure: Error | undefined;
  let givenUp!: (error: Error) => void;
  /** Rejects once the archive is given up, so nothing waits on it forever. */
  const abandoned = new Promise<never>((_, reject) => (givenUp = reject));
  abandoned.catch(() => undefined);
  let ended = false;

  async function* files() {
    for await (const entry of queue) yield { name: entry.path, input: entry.bytes() };
  }

  /** Pumps the archive into the download; settles when it has ended, rejects when given up. */
  async function pump(to: ZipSink): Promise<void> {
    const reader = makeZip(files(), { buffersAreUTF8: true }).getReader();
    void abandoned.catch((error: unknown) => reader.cancel(error).catch(() => undefined));
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), abandoned]);
      // A read the cancel ended looks like the archive's end: it must not end the download.
      if (failure !== undefined) throw failure;
      if (done) break;
      to.write(value);
    }
    ended = true;
    to.end();
  }

  function fail(reason: string): void {
    if (failure !== undefined || ended) return;
    failure = new Error(reason);
    givenUp(failure);
    open.clear();
    void starting?.then(
      (to) => to.abort(reason),
      () => undefined,
    );
  }

  /** The download, while the archive can still be written. */
  function usable(): ZipSink {
    if (sink?.cancelled === true) fail('the download was cancelled in the browser');
    if (failure !== undefined) throw failure;
    if (sink === undefined) throw new Error('the archive has not started');
    return sink;
  }

  function entry(index: number): ZipEntry {
    const found = open.get(index);
    if (found === undefined) throw failure ?? new Error(`file ${index + 1} is not open`);
    return found;
  }

  return {
    label: options.label,
    downloads: { archive: options.name },
    async open(index, path) {
      if (failure !== undefined) throw failure;
      if (starting === undefined) {
        starting = options.start(options.name);
        finished = starting.then((to) => {
          sink = to;
          return pump(to);
        });
        // Read by the last commit; a batch given up earlier reads it nowhere.
        finished.catch(() => undefined);
        await starting;
      }
      usable();
      const opened = new ZipEntry(path);
      open.set(index, opened);
      queue.put(opened);
    },
    async write(index, bytes) {
      // Taken at once, with no wait before it, so the bytes keep the order of the calls.
      const file = entry(index);
      usable();
      file.chunks.put(bytes);
    },
    async commit(index) {
      const file = entry(index);
      open.delete(index);
      file.chunks.put(END);
      await Promise.race([file.taken, abandoned]);
      if (index + 1 >= options.fileCount) {
        queue.put(END);
        await Promise.race([finished, abandoned]);
      }
      return { name: file.path };
    },
    async discard() {
      fail('a file of the archive was discarded');
    },
    release() {
      fail('the transfer ended before the archive was complete');
    },
  };
}
