// What the page and the download service worker say to each other. The page opens a download
// with `start` (to the worker, carrying a MessagePort); everything after goes over that port.

/** The path segment under the worker's scope that its downloads live at. */
export const DOWNLOAD_PATH_SEGMENT = 'ferry-download';

export interface StartDownload {
  type: 'ferry-download-start';
  id: string;
  name: string;
  /** Sent as Content-Length when known. */
  size: number | null;
}

/** Keeps the worker from being stopped as idle while a download streams through it. */
export interface KeepAlive {
  type: 'ferry-download-keepalive';
}

export type PageToWorker = StartDownload | KeepAlive;

/** Over the port, page to worker. */
export type DownloadChunk =
  /** Consecutive chunks of the file, in order. */
  { type: 'chunks'; buffers: ArrayBuffer[] } | { type: 'end' } | { type: 'abort'; reason: string };

/** Over the port, worker to page. */
export type DownloadNews =
  | { type: 'ready'; url: string }
  /** The person cancelled the download in the browser's own download list. */
  | { type: 'cancelled' };
