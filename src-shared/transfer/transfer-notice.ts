import { countOf } from '../format/count-of';
import { formatBytes } from '../format/format-bytes';
import { doneHeading } from './delivered-file-notes';
import { fromWords, shownPeerName } from '../devices/device-name-words';
import type { OfferView, TransferView } from './transfer-view';

/** What the system shows when something needs the person while Ferry is in the background. */
export interface TransferNotice {
  title: string;
  body: string;
}

const files = (count: number): string => countOf(count, 'file');

// A notification names the sender as the prompt's first line does (devices/device-name-words.ts).
const fromWhom = (offer: OfferView): string =>
  fromWords(shownPeerName({ check: offer.peerCheck, announcedName: offer.announcedName }));

/**
 * The notification for the step from `before` to `view`, if it is one a person should hear of
 * while looking elsewhere: an offer waiting for an answer, or a transfer done. Each is told once.
 */
export function transferNotice(
  before: TransferView,
  view: TransferView,
): TransferNotice | undefined {
  if (view.phase === before.phase) return undefined;
  if (view.phase === 'awaiting-acceptance') {
    const { offer } = view;
    return {
      title: 'Files offered',
      body: `${files(offer.fileCount)}, ${formatBytes(offer.totalBytes)}, ${fromWhom(offer)}. Open Ferry to accept or decline.`,
    };
  }
  if (view.phase === 'done') {
    const size = view.files.reduce((sum, file) => sum + file.size, 0);
    return {
      title: doneHeading(view.direction, view.verified),
      body: `${files(view.files.length)}, ${formatBytes(size)}.`,
    };
  }
  return undefined;
}
