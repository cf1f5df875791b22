// The service worker behind streamed downloads: it answers a navigation to
// `<scope>ferry-download/<id>/<name>` with a response whose body is fed, chunk by chunk, from
// the page over a MessagePort, so the browser writes a received file straight to its downloads.
// Its scope is the folder it is served from (assets/), which no page lives in: it handles only
// its own download addresses and leaves every other request alone.
import {
  DOWNLOAD_PATH_SEGMENT,
  type DownloadChunk,
  type DownloadNews,
  type PageToWorker,
} from './download-worker-messages';

// The DOM library describes a window; these are the few service-worker shapes used here.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface WorkerMessageEvent extends ExtendableEvent {
  readonly data: unknown;
  readonly ports: readonly MessagePort[];
}
interface ServiceWorkerScope {
  readonly registration: { readonly scope: string };
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: WorkerMessageEvent) => void): void;
}

const worker = self as unknown as ServiceWorkerScope;
const waiting = new Map<
  string,
  { name: string; size: number | null; body: ReadableStream<Uint8Array> }
>();

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

function bodyFedBy(port: MessagePort): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      port.onmessage = ({ data }: MessageEvent<DownloadChunk>) => {
        if (data.type === 'chunks') {
          for (const buffer of data.buffers) controller.enqueue(new Uint8Array(buffer));
        } else if (data.type === 'end') {
          controller.close();
          port.close();
        } else {
          controller.error(new Error(data.reason));
          port.close();
        }
      };
    },
    cancel() {
      port.postMessage({ type: 'cancelled' } satisfies DownloadNews);
      port.close();
    },
  });
}

worker.addEventListener('message', (event) => {
  const message = event.data as PageToWorker | null;
  if (message?.type !== 'ferry-download-start') return;
  const port = event.ports[0];
  if (port === undefined) return;
  waiting.set(message.id, { name: message.name, size: message.size, body: bodyFedBy(port) });
  const url = `${worker.registration.scope}${DOWNLOAD_PATH_SEGMENT}/${message.id}/${encodeURIComponent(message.name)}`;
  port.postMessage({ type: 'ready', url } satisfies DownloadNews);
});

/** `filename*` carries any name; the plain `filename` is for browsers that read only ASCII. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const prefix = `${new URL(worker.registration.scope).pathname}${DOWNLOAD_PATH_SEGMENT}/`;
  if (!url.pathname.startsWith(prefix)) return;
  const id = url.pathname.slice(prefix.length).split('/')[0];
  const download = waiting.get(id);
  if (download === undefined) return;
  waiting.delete(id);
  const headers = new Headers({
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': disposition(download.name),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  if (download.size !== null) headers.set('Content-Length', String(download.size));
  event.respondWith(new Response(download.body, { headers }));
});
