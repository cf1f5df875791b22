import { formatBytes } from '../../src-shared/format/format-bytes';
import type { OfferView } from '../../src-shared/transfer/transfer-view';

/**
 * The question a receiver is asked. The protocol announces one file at a time, so before the
 * first ack only the count, the total and the first name are known: say exactly that.
 */
export function describeOffer(offer: OfferView, destination: string): string {
  const files = offer.fileCount === 1 ? '1 file' : `${offer.fileCount} files`;
  const from = offer.senderVersion ? ` (sender runs Ferry ${offer.senderVersion})` : '';
  const first =
    offer.fileCount === 1 ? `"${offer.firstFileName}"` : `starting with "${offer.firstFileName}"`;
  return `Incoming: ${files}, ${formatBytes(offer.totalBytes)} in all, ${first}${from}.\nSave to ${destination}? [y/N] `;
}
