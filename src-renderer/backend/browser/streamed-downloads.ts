import downloadWorkerUrl from './download-worker?worker&url';
import {
  type DownloadChunk,
  type DownloadNews,
  type KeepAlive,
  type StartDownload,
} from './download-worker-messages';
import { newRoomId } from './room-id';
import { downloadName, type SaveTarget } from './save-target';
import {
  DOWNLOAD_BATCH_BYTES,
  DOWNLOAD_FRAME_LIFETIME_MS,
  DOWNLOAD_WORKER_READY_TIMEOUT_MS,
  DOWNLOAD_WORKER_KEEP_ALIVE_MS,
} from '../../../src-shared/protocol/limits';
import { withDeadline } from '../../../src-shared/session/with-deadline';
import { browserClock } from './browser-clock';
import { pageAbilities } from './page-abilities';
import type { ZipSink } from './zip-download';

function activated(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  const active = registration.active;
  if (active) return Promise.resolve(active);
  const pending = registration.installing ?? registration.waiting;
  if (pending === null) return Promise.reject(new Error('the download worker did not install'));
  return new Promise((resolve, reject) => {
    pending.addEventListener('statechange', () => {
      if (pending.state === 'activated') resolve(pending);
      else if (pending.state === 'redundant') reject(new Error('the download worker was replaced'));
    });
  });
}

/** One file (or one archive) on its way to the browser's downloads. */
interface DownloadStream {
  write(bytes: Uint8Array): void;
  end(): void;
  abort(reason: string): void;
}

/** The page's side of the download service worker. */
export class StreamedDownloads {
  readonly #worker: ServiceWorker;
  #open = 0;
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  private constructor(worker: ServiceWorker) {
    this.#worker = worker;
  }

  /**
   * Registers the worker; undefined where the browser cannot stream a download this way (no
   * service workers outside a secure context, a private window that refuses them).
   */
  static async register(): Promise<StreamedDownloads | undefined> {
    if (!pageAbilities().serviceWorker) return undefined;
    try {
      const url = new URL(downloadWorkerUrl, window.location.href);
      const registration = await navigator.serviceWorker.register(url, {
        scope: new URL('./', url).href,
      });
      return new StreamedDownloads(
        await withDeadline(browserClock, activated(registration), DOWNLOAD_WORKER_READY_TIMEOUT_MS),
      );
    } catch (error) {
      console.warn(
        'Ferry cannot stream downloads in this browser; files will be held in memory',
        error,
      );
      return undefined;
    }
  }

  /** Starts a download named `name`; `cancelled` runs if the person stops it in the browser. */
  async start(name: string, size: number | null, cancelled: () => void): Promise<DownloadStream> {
    const channel = new MessageChannel();
    const port = channel.port1;
    const ready = new Promise<string>((resolve) => {
      port.onmessage = ({ data }: MessageEvent<DownloadNews>) => {
        if (data.type === 'ready') resolve(data.url);
        else cancelled();
      };
    });
    const start: StartDownload = { type: 'ferry-download-start', id: newRoomId(), name, size };
    this.#worker.postMessage(start, [channel.port2]);
    const url = await withDeadline(browserClock, ready, DOWNLOAD_WORKER_READY_TIMEOUT_MS);
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.src = url;
    document.body.append(frame);
    this.#opened();
    let finished = false;
    let batch: ArrayBuffer[] = [];
    let batched = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      const chunk: DownloadChunk = { type: 'chunks', buffers: batch };
      port.postMessage(chunk, batch);
      batch = [];
      batched = 0;
    };
    const finish = (message: DownloadChunk): void => {
      if (finished) return;
      finished = true;
      if (message.type === 'end') flush();
      port.postMessage(message);
      this.#closed();
      setTimeout(() => frame.remove(), DOWNLOAD_FRAME_LIFETIME_MS);
    };
    return {
      write: (bytes) => {
        if (finished) return;
        // Frames arrive as whole buffers, which move to the worker without a copy.
        const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
        batch.push((whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer);
        batched += bytes.byteLength;
        if (batched >= DOWNLOAD_BATCH_BYTES) flush();
      },
      end: () => finish({ type: 'end' }),
      abort: (reason) => finish({ type: 'abort', reason }),
    };
  }

  #opened(): void {
    this.#open += 1;
    const keepAlive: KeepAlive = { type: 'ferry-download-keepalive' };
    this.#keepAlive ??= setInterval(
      () => this.#worker.postMessage(keepAlive),
      DOWNLOAD_WORKER_KEEP_ALIVE_MS,
    );
  }

  #closed(): void {
    this.#open -= 1;
    if (this.#open > 0) return;
    clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }
}

/** One download for a whole archive (zip-download.ts), through the same service worker. */
export async function streamedArchive(
  downloads: StreamedDownloads,
  name: string,
): Promise<ZipSink> {
  let cancelled = false;
  const stream = await downloads.start(name, null, () => {
    cancelled = true;
  });
  return {
    write: (bytes) => stream.write(bytes),
    end: () => stream.end(),
    abort: (reason) => stream.abort(reason),
    get cancelled() {
      return cancelled;
    },
  };
}

/**
 * Received files streamed into the browser's downloads through the service worker, never held
 * whole in memory. Folders cannot be recreated there, so paths are flattened into the name.
 */
export function streamedDownloadTarget(downloads: StreamedDownloads, label: string): SaveTarget {
  const open = new Map<number, { name: string; stream: DownloadStream; cancelled(): boolean }>();

  function entry(index: number): { name: string; stream: DownloadStream; cancelled(): boolean } {
    const file = open.get(index);
    if (file === undefined) throw new Error(`file ${index + 1} is not open`);
    return file;
  }

  return {
    label,
    downloads: {},
    async open(index, path, fileSize) {
      const name = downloadName(path);
      let cancelled = false;
      const stream = await downloads.start(name, fileSize, () => {
        cancelled = true;
      });
      open.set(index, { name, stream, cancelled: () => cancelled });
    },
    async write(index, bytes) {
      const file = entry(index);
      if (file.cancelled()) throw new Error('the download was cancelled in the browser');
      file.stream.write(bytes);
    },
    async commit(index) {
      const file = entry(index);
      open.delete(index);
      file.stream.end();
      return { name: file.name };
    },
    async discard(index) {
      open.get(index)?.stream.abort('the file was discarded');
      open.delete(index);
    },
  };
}
