import { formatBytes } from '../../../src-shared/format/format-bytes';
import type { OfferPacking, OfferView } from '../../../src-shared/transfer/transfer-view';
import { offersZip, zipName } from '../../../src-shared/transfer/zip-offer';
import { asFolder } from './folder-access';
import { directoryPicker, folderTarget } from './folder-target';
import { blobZipSink, memoryTarget } from './memory-target';
import { IN_MEMORY_WARNING_BYTES } from '../../../src-shared/protocol/limits';
import type { SaveTarget } from './save-target';
import {
  streamedArchive,
  streamedDownloadTarget,
  type StreamedDownloads,
} from './streamed-downloads';
import { zipDownloadTarget } from './zip-download';

const DOWNLOADS = 'Your browser’s downloads';

/**
 * What a receive built into a Blob says under "Save to", with a warning above
 * IN_MEMORY_WARNING_BYTES that says why this page cannot do better and what would:
 * `plainHttp` is whether the page was opened over plain HTTP, which withholds service workers.
 */
export function blobDownloadLabel(totalBytes: number, plainHttp: boolean): string {
  const label = `${DOWNLOADS} (saved once the last byte arrives)`;
  if (totalBytes <= IN_MEMORY_WARNING_BYTES) return label;
  const why = plainHttp
    ? 'This page was opened over plain HTTP, so'
    : 'This browser cannot stream a download here, so';
  return `${label}. ${why} the browser holds all ${formatBytes(totalBytes)} until then, which a phone may not have room for: the Ferry desktop app, or this page over HTTPS, saves straight to disk`;
}

/**
 * Where received files go, best first: a folder the person chose (File System Access API), a
 * download streamed through the service worker, and only where neither exists, a download built
 * into a Blob until its last byte. `plainHttp`: the page was opened over plain HTTP.
 */
export class SaveChoice {
  readonly #downloads: Promise<StreamedDownloads | undefined>;
  readonly #plainHttp: boolean;
  #folder: FileSystemDirectoryHandle | undefined;

  constructor(downloads: Promise<StreamedDownloads | undefined>, plainHttp: boolean) {
    this.#downloads = downloads;
    this.#plainHttp = plainHttp;
  }

  /** Whether this browser can write into a folder the person picks. */
  get canChooseFolder(): boolean {
    return directoryPicker() !== undefined;
  }

  /**
   * Asks for a folder; must run straight from the click. Resolves with the folder's name, or null
   * when the person closes the picker.
   */
  async chooseFolder(): Promise<string | null> {
    const pick = directoryPicker();
    if (pick === undefined) throw new Error('this browser cannot save into a chosen folder');
    try {
      this.#folder = await pick({ mode: 'readwrite', id: 'ferry-downloads' });
      return this.#folder.name;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return null;
      throw error;
    }
  }

  /**
   * The folder the person chose on this page, as a target for a quick save
   * (quick-save.ts); undefined while none is chosen.
   */
  chosenFolder(): SaveTarget | undefined {
    return this.#folder === undefined ? undefined : folderTarget(asFolder(this.#folder));
  }

  /** The "Save to" of an offer before the person changes anything. */
  async defaultLabel(totalBytes: number): Promise<string> {
    return (await this.#downloads) ? DOWNLOADS : blobDownloadLabel(totalBytes, this.#plainHttp);
  }

  /**
   * The `.zip` choice of an offer saved as downloads (src-shared/transfer/zip-offer.ts), streamed
   * or built into a Blob alike.
   */
  zipChoice(offer: OfferView): { name: string } | undefined {
    return offersZip(offer) ? { name: zipName(offer) } : undefined;
  }

  /**
   * The target for an accepted offer; `destination` is the folder name the picker returned,
   * `zip` the archive the prompt offered, taken unless `packing` says separate files.
   */
  async target(
    destination: string | undefined,
    offer: OfferView,
    zip?: { name: string },
    packing?: OfferPacking,
  ): Promise<SaveTarget> {
    const folder = this.#folder;
    if (destination !== undefined && folder !== undefined && folder.name === destination) {
      return folderTarget(asFolder(folder));
    }
    const downloads = await this.#downloads;
    const label =
      downloads === undefined ? blobDownloadLabel(offer.totalBytes, this.#plainHttp) : DOWNLOADS;
    if (zip === undefined || packing === 'separate-files') {
      return downloads === undefined
        ? memoryTarget(label)
        : streamedDownloadTarget(downloads, label);
    }
    return zipDownloadTarget({
      name: zip.name,
      fileCount: offer.fileCount,
      label,
      start: async (name) =>
        downloads === undefined ? blobZipSink(name) : streamedArchive(downloads, name),
    });
  }
}
