import { formatBytes } from '../../src-shared/format/format-bytes';
import type { OfferView } from '../../src-shared/transfer/transfer-view';

/**
 * What a receiver is shown of an offer. The protocol announces one file at a time, so before the
 * first ack only the count, the total and the first name are known: say exactly that.
 */
export function describeOffer(offer: OfferView): string {
  const files = offer.fileCount === 1 ? '1 file' : `${offer.fileCount} files`;
  const from = offer.senderVersion ? ` (sender runs Ferry ${offer.senderVersion})` : '';
  const first =
    offer.fileCount === 1 ? `"${offer.firstFileName}"` : `starting with "${offer.firstFileName}"`;
  return `Incoming: ${files}, ${formatBytes(offer.totalBytes)} in all, ${first}${from}.`;
}

/** The question after the offer, unless `--yes` answered it already. */
export function acceptQuestion(destination: string): string {
  return `Save to ${destination}? [y/N] `;
}
