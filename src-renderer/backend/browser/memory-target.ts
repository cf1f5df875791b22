import { downloadName, type SaveTarget } from './save-target';

/**
 * Above this a receive held in memory gets a warning before it is accepted. Chosen for phones,
 * the browsers most likely to end up here (a LAN room over plain HTTP offers no other way to
 * save): their tabs are killed somewhere past a few hundred MiB.
 */
export const IN_MEMORY_WARNING_BYTES = 256 * 1024 * 1024;

/**
 * Browsers fetch an object URL's download after the click returns; revoking it at once can cancel
 * the download, so it is revoked after this.
 */
export const OBJECT_URL_LIFETIME_MS = 40_000;

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
