import { shownPeerName } from '../devices/device-name-words';
import { PEER_PROGRAM_WORDS } from '../devices/peer-program';
import { countOf } from '../format/count-of';
import { formatBytes } from '../format/format-bytes';
import type { PeerSummary } from './transfer-view';

// Every surface's words for a text message (docs/protocol.md, "Text messages"): a text is
// named as a text, by its length in characters, never as the file it travels as.

/** "a text message (190 characters)": characters as a person counts them, not UTF-16 units. */
export function textMessageWords(text: string): string {
  const characters = [...text].length;
  return `a text message (${characters.toLocaleString('en-US')} ${characters === 1 ? 'character' : 'characters'})`;
}

/** "3 files, 12 MB", or for a text message "a text message (190 characters)". */
export function batchWords(batch: {
  fileCount: number;
  totalBytes: number;
  text?: string | undefined;
}): string {
  if (batch.text !== undefined) return textMessageWords(batch.text);
  return `${countOf(batch.fileCount, 'file')}, ${formatBytes(batch.totalBytes)}`;
}

/**
 * "“Ana's laptop” sent a text": the remembered name, else the name it gave itself, else the kind
 * of program it is, else "The other device".
 */
export function textSenderLine(peer: PeerSummary | undefined): string {
  const name = peer === undefined ? undefined : shownPeerName(peer);
  const who =
    name !== undefined
      ? `“${name}”`
      : peer?.program !== undefined
        ? capitalized(PEER_PROGRAM_WORDS[peer.program])
        : 'The other device';
  return `${who} sent a text`;
}

function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
