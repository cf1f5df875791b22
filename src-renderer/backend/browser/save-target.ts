import type { SaveTarget as CoreSaveTarget } from '../../../src-shared/session/save-target';

/**
 * Where a browser receiver puts what arrives: the session core's save target
 * (src-shared/session/save-target.ts) with the label the accept prompt shows.
 */
export interface SaveTarget extends CoreSaveTarget {
  /** What the accept prompt shows under "Save to". */
  readonly label: string;
  /** The files go to the browser's downloads: as one archive named `archive`, or one each. */
  readonly downloads?: { archive?: string };
  /** The transfer is over, however it ended: a download still open is given up. */
  release?(): void;
}

/** A download cannot hold a folder: `album/raw/a.cr2` is saved as `album_raw_a.cr2`. */
export function downloadName(path: string): string {
  return path.split('/').join('_');
}
