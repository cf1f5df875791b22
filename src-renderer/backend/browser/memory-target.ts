import { BlobParts } from './blob-parts';
import { downloadName, type SaveTarget } from './save-target';
import { OBJECT_URL_LIFETIME_MS } from '../../../src-shared/protocol/limits';
import type { ZipSink } from './zip-download';

/** Starts a browser download of `blob` under `name`. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}

/**
 * The last resort: each file is built into a Blob as it arrives (blob-parts.ts) and handed to the
 * browser as a download at its last byte. Only used where neither a chosen folder nor a streamed
 * download works.
 */
export function memoryTarget(label: string): SaveTarget {
  const files = new Map<number, { path: string; bytes: BlobParts }>();
  return {
    label,
    downloads: {},
    async open(index, path) {
      files.set(index, { path, bytes: new BlobParts() });
    },
    async write(index, bytes) {
      files.get(index)?.bytes.write(bytes);
    },
    async commit(index) {
      const file = files.get(index);
      files.delete(index);
      if (file === undefined) throw new Error(`file ${index + 1} is not open`);
      const name = downloadName(file.path);
      downloadBlob(file.bytes.blob(), name);
      return { name };
    },
    async discard(index) {
      files.delete(index);
    },
  };
}

/**
 * A `.zip` (zip-download.ts) built into a Blob the same way, downloaded once it has ended; a
 * given-up archive is dropped and never downloaded.
 */
export function blobZipSink(name: string): ZipSink {
  let bytes: BlobParts | undefined = new BlobParts();
  return {
    write(chunk) {
      bytes?.write(chunk);
    },
    end() {
      if (bytes !== undefined) downloadBlob(bytes.blob(), name);
      bytes = undefined;
    },
    abort() {
      bytes = undefined;
    },
    cancelled: false,
  };
}
