import { downloadName, type SaveTarget } from './save-target';
import { OBJECT_URL_LIFETIME_MS } from '../../../src-shared/protocol/limits';

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
 * The last resort: each file is kept in memory until its last byte and then handed to the
 * browser as a download. Only used where neither a chosen folder nor a streamed download works.
 */
export function memoryTarget(label: string): SaveTarget {
  const files = new Map<number, { path: string; chunks: Uint8Array[] }>();
  return {
    label,
    downloads: {},
    async open(index, path) {
      files.set(index, { path, chunks: [] });
    },
    async write(index, bytes) {
      files.get(index)?.chunks.push(bytes);
    },
    async commit(index) {
      const file = files.get(index);
      files.delete(index);
      if (file === undefined) throw new Error(`file ${index + 1} is not open`);
      const name = downloadName(file.path);
      downloadBlob(new Blob(file.chunks as Uint8Array<ArrayBuffer>[]), name);
      return { name };
    },
    async discard(index) {
      files.delete(index);
    },
  };
}
