import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { countOf } from '../../src-shared/format/count-of';

type Done = Extract<TransferView, { phase: 'done' }>;

/** Where a browser put what it received: one archive, or one download per file. */
export function savedToDownloads(downloads: { archive?: string }, files: Done['files']): string {
  const where = 'Saved to your browser’s downloads';
  if (downloads.archive !== undefined) return `${where} as ${downloads.archive}.`;
  if (files.length === 1) return `${where} as ${files[0].name}.`;
  return `${where} as ${countOf(files.length, 'separate file')}.`;
}

/** The done screen's line saying where the files went, when they went to the browser's downloads. */
export function SavedToDownloads({ view }: { view: Done }) {
  if (view.direction !== 'receive' || view.downloads === undefined) return null;
  return <p data-testid="saved-to">{savedToDownloads(view.downloads, view.files)}</p>;
}
