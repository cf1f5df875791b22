import { fromWords, shownPeerName } from '../../src-shared/devices/device-name-words';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { flagCounts, offerFileFlags } from '../../src-shared/transfer/offer-files';
import {
  OFFER_FILES_PRINTED,
  type OfferFileView,
  type OfferView,
} from '../../src-shared/transfer/transfer-view';

/**
 * What a receiver is shown of an offer. The protocol announces one file at a time, so unless the
 * sender listed its files (docs/protocol.md, "File list"), only the count, the total and the
 * first name are known before the first ack: say exactly that. A listed offer prints its first
 * names, each flagged when it is hidden or runs a program, and counts the rest.
 */
export function describeOffer(offer: OfferView): string {
  const files = offer.fileCount === 1 ? '1 file' : `${offer.fileCount} files`;
  // Who sends, as the prompt's first line names it (docs/protocol.md, "The name shown"), then
  // the release it runs.
  const sender = shownPeerName({ check: offer.peerCheck, announcedName: offer.announcedName });
  const version = offer.senderVersion ? ` (sender runs Ferry ${offer.senderVersion})` : '';
  const from = `, ${fromWords(sender)}${version}`;
  const listed = offer.files;
  if (offer.textMessage === true) {
    return `Incoming: a text message, ${formatBytes(offer.totalBytes)}${from}.`;
  }
  if (offer.fileCount === 1) {
    const only = listed?.[0];
    const noted = only === undefined ? '' : flagged(only);
    return `Incoming: 1 file, ${formatBytes(offer.totalBytes)} in all, "${offer.firstFileName}"${noted}${from}.`;
  }
  if (listed === undefined) {
    return (
      `Incoming: ${files}, ${formatBytes(offer.totalBytes)} in all, starting with "${offer.firstFileName}"${from}.\n` +
      'Only the first name is known: the sender did not list its files.'
    );
  }
  const lines = [`Incoming: ${files}, ${formatBytes(offer.totalBytes)} in all${from}:`];
  for (const file of listed.slice(0, OFFER_FILES_PRINTED)) {
    lines.push(`  ${file.name} (${formatBytes(file.size)})${flagged(file)}`);
  }
  const printed = Math.min(listed.length, OFFER_FILES_PRINTED);
  const rest = listed.slice(printed);
  if (rest.length > 0) {
    const more = rest.length === 1 ? '1 more file' : `${rest.length} more files`;
    lines.push(`  and ${more}${flagsAmong(rest)}`);
  }
  const unlisted = offer.fileCount - listed.length;
  if (unlisted > 0) lines.push(`  and ${countFiles(unlisted)} the sender did not list`);
  return lines.join('\n');
}

/** The question after the offer, unless `--yes` answered it already. */
export function acceptQuestion(destination: string, textMessage = false): string {
  // A text message is printed here, never saved (docs/protocol.md, "Text messages").
  return textMessage ? 'Show the text? [y/N] ' : `Save to ${destination}? [y/N] `;
}

function flagged(file: OfferFileView): string {
  const flags = offerFileFlags(file);
  return flags.length === 0 ? '' : ` [${flags.join(', ')}]`;
}

function countFiles(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

/** How many of the files not printed are flagged, so none passes unseen. */
function flagsAmong(files: readonly OfferFileView[]): string {
  const counts = flagCounts(files);
  return counts.length === 0 ? '' : ` [${counts.join(', ')}]`;
}
