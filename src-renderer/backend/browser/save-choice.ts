import { formatBytes } from '../../../src-shared/format/format-bytes';
import type { OfferPacking, OfferView } from '../../../src-shared/transfer/transfer-view';
import { offersZip, zipName } from '../../../src-shared/transfer/zip-offer';
import { asFolder } from './folder-access';
import { directoryPicker, folderTarget } from './folder-target';
import { memoryTarget } from './memory-target';
import { IN_MEMORY_WARNING_BYTES } from '../../../src-shared/protocol/limits';
import type { SaveTarget } from './save-target';
import {
  streamedArchive,
  streamedDownloadTarget,
  type StreamedDownloads,
} from './streamed-downloads';
import { zipDownloadTarget } from './zip-download';

const DOWNLOADS = 'Your browser’s downloads';

/** What a receive held in memory says under "Save to", with a warning when it is large. */
export function inMemoryLabel(totalBytes: number): string {
  const label = `${DOWNLOADS} (kept in memory until the last byte arrives)`;
  return totalBytes > IN_MEMORY_WARNING_BYTES
    ? `${label}. Warning: ${formatBytes(totalBytes)} may be more than this browser can hold; on a computer, open Ferry over HTTPS to save straight to disk`
    : label;
}

/**
 * Where received files go, best first: a folder the person chose (File System Access API), a
 * download streamed through the service worker, and only where neither exists, a download held
 * in memory.
 */
export class SaveChoice {
  readonly #downloads: Promise<StreamedDownloads | undefined>;
  #folder: FileSystemDirectoryHandle | undefined;

  constructor(downloads: Promise<StreamedDownloads | undefined>) {
    this.#downloads = downloads;
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

  /** The "Save to" of an offer before the person changes anything. */
  async defaultLabel(totalBytes: number): Promise<string> {
    return (await this.#downloads) ? DOWNLOADS : inMemoryLabel(totalBytes);
  }

  /**
   * The `.zip` choice of an offer saved as downloads (src-shared/transfer/zip-offer.ts): only
   * where downloads stream, as an archive held in memory would hold the whole batch at once.
   */
  async zipChoice(offer: OfferView, today: Date): Promise<{ name: string } | undefined> {
    return (await this.#downloads) && offersZip(offer)
      ? { name: zipName(offer, today) }
      : undefined;
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
    if (downloads === undefined) return memoryTarget(inMemoryLabel(offer.totalBytes));
    if (zip === undefined || packing === 'separate-files') {
      return streamedDownloadTarget(downloads, DOWNLOADS);
    }
    return zipDownloadTarget({
      name: zip.name,
      fileCount: offer.fileCount,
      label: DOWNLOADS,
      start: (name) => streamedArchive(downloads, name),
    });
  }
}
