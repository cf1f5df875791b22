import { describe, expect, it } from 'vitest';
import { transferNotice } from './transfer-notice';
import type { TransferView } from './transfer-view';

const offered: TransferView = {
  phase: 'awaiting-acceptance',
  direction: 'receive',
  destination: '/home/ana/Downloads',
  offer: {
    firstFileName: 'a.jpg',
    fileCount: 3,
    totalBytes: 3 * 1024 * 1024,
    peerCheck: { kind: 'device', name: 'Bea phone', fingerprint: 'sha-256 AA:BB' },
  },
};
const connecting: TransferView = {
  phase: 'connecting',
  direction: 'receive',
  code: 'a-b-c',
  stage: 'finding',
};
const done: TransferView = {
  phase: 'done',
  direction: 'receive',
  files: [{ name: 'a.jpg', size: 2048 }],
  totalBytes: 2048,
  verified: true,
};

describe('what Ferry tells a person who is looking elsewhere', () => {
  it('an offer waiting for an answer, naming a remembered sender', () => {
    expect(transferNotice(connecting, offered)).toEqual({
      title: 'Files offered',
      body: '3 files, 3.1 MB, from Bea phone. Open Ferry to accept or decline.',
    });
  });

  it('an offer from a device not remembered, by the name it gave, or saying it gave none', () => {
    const { offer } = offered as Extract<TransferView, { phase: 'awaiting-acceptance' }>;
    const told = (announced: Partial<typeof offer>): TransferView =>
      ({
        ...offered,
        offer: { ...offer, peerCheck: { kind: 'words', words: 'a b c' }, ...announced },
      }) as TransferView;
    expect(transferNotice(connecting, told({ announcedName: 'Firefox on Linux' }))?.body).toBe(
      '3 files, 3.1 MB, from Firefox on Linux. Open Ferry to accept or decline.',
    );
    expect(transferNotice(connecting, told({}))?.body).toBe(
      '3 files, 3.1 MB, from a device that gave no name. Open Ferry to accept or decline.',
    );
  });

  it('a finished transfer', () => {
    expect(transferNotice(offered, done)).toEqual({
      title: 'Received and verified',
      body: '1 file, 2.0 kB.',
    });
  });

  it('nothing for the steps in between, and nothing twice', () => {
    expect(transferNotice({ phase: 'idle' }, connecting)).toBeUndefined();
    expect(transferNotice(offered, offered)).toBeUndefined();
    expect(transferNotice(done, done)).toBeUndefined();
  });
});
