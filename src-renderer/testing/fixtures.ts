import type { SelectedItem } from '../backend/ferry-backend';
import type { ProgressView, TransferView } from '../../src-shared/transfer/transfer-view';

// Words from the real list, so completion and validation see a real code.
export const CODE = 'acid-otter-plank';

export const PHOTO: SelectedItem = {
  id: '/home/ana/photo.jpg',
  name: 'photo.jpg',
  size: 2_516_582,
  isDirectory: false,
  fileCount: 1,
};

export const ALBUM: SelectedItem = {
  id: '/home/ana/Album',
  name: 'Album',
  size: 52_428_800,
  isDirectory: true,
  fileCount: 12,
};

export const PROGRESS: ProgressView = {
  fileIndex: 2,
  fileCount: 13,
  fileName: 'Album/beach.jpg',
  fileBytes: 1_048_576,
  fileSize: 4_194_304,
  bytesDone: 20_971_520,
  totalBytes: 54_945_382,
  bytesPerSecond: 2_097_152,
  etaSeconds: 200,
};

export const WAITING_FOR_PEER: TransferView = {
  phase: 'waiting-for-peer',
  direction: 'send',
  code: CODE,
  files: [
    { name: 'photo.jpg', size: PHOTO.size },
    { name: 'notes.txt', size: 1200 },
  ],
  totalBytes: PHOTO.size + 1200,
};

export const OFFER: TransferView = {
  phase: 'awaiting-acceptance',
  direction: 'receive',
  offer: {
    firstFileName: 'Album/beach.jpg',
    fileCount: 13,
    totalBytes: 54_945_382,
    peerCheck: { kind: 'words', words: 'plum otter cask' },
  },
  destination: '/home/ana/Downloads',
};

/** Certificate fingerprints of other devices, normalized as verify/sas.ts writes them. */
const printOf = (byte: string): string => `sha-256 ${Array(32).fill(byte).join(':')}`;
export const BO_PRINT = printOf('B0');
export const CY_PRINT = printOf('C1');
