import { describe, expect, it } from 'vitest';
import { offerFileViews } from '../../src-shared/transfer/offer-files';
import { OFFER_FILES_PRINTED } from '../../src-shared/transfer/transfer-view';
import { acceptQuestion, describeOffer } from './describe-offer';

// What the offer says of the files does not depend on it.
const UNVERIFIED = { kind: 'unverified' } as const;

describe('the receiver is shown what the protocol has announced', () => {
  it('a batch the sender did not list names its count, total size, first file and the sender’s version, and says so', () => {
    expect(
      describeOffer({
        peerCheck: UNVERIFIED,
        firstFileName: 'photos/a.jpg',
        fileCount: 3,
        totalBytes: 64 * 1024 * 1024,
        senderVersion: '0.1.0',
      }),
    ).toBe(
      'Incoming: 3 files, 67.1 MB in all, starting with "photos/a.jpg", from a device that gave no name (sender runs Ferry 0.1.0).\n' +
        'Only the first name is known: the sender did not list its files.',
    );
  });

  it('a single file is named as the whole offer', () => {
    expect(
      describeOffer({
        peerCheck: UNVERIFIED,
        firstFileName: 'report.pdf',
        fileCount: 1,
        totalBytes: 2048,
      }),
    ).toBe('Incoming: 1 file, 2.0 kB in all, "report.pdf", from a device that gave no name.');
  });

  it('names the sender by the name it gave, or by the one it is remembered by', () => {
    const offer = { firstFileName: 'a.txt', fileCount: 1, totalBytes: 5 };
    const words = { kind: 'words', words: 'acid otter plank' } as const;
    expect(describeOffer({ ...offer, peerCheck: words, announcedName: 'Ana’s laptop' })).toBe(
      'Incoming: 1 file, 5 B in all, "a.txt", from Ana’s laptop.',
    );
    const remembered = { kind: 'device', name: 'Bea', fingerprint: 'sha-256 AA' } as const;
    expect(describeOffer({ ...offer, peerCheck: remembered, announcedName: 'Mallory' })).toBe(
      'Incoming: 1 file, 5 B in all, "a.txt", from Bea.',
    );
  });

  it('then asks about the destination, no by default', () => {
    expect(acceptQuestion('/home/ana/Downloads')).toBe('Save to /home/ana/Downloads? [y/N] ');
  });
});

describe('an offer whose sender listed its files', () => {
  it('prints every name with its size, flagging hidden files and programs', () => {
    const files = offerFileViews(
      [
        { path: 'notes.txt', size: 1200 },
        { path: '.ssh/authorized_keys', size: 400 },
        { path: 'invoice.pdf.exe', size: 2048 },
      ],
      'unknown',
    );
    expect(
      describeOffer({
        peerCheck: UNVERIFIED,
        firstFileName: 'notes.txt',
        fileCount: 3,
        totalBytes: 3648,
        files,
      }),
    ).toBe(
      [
        'Incoming: 3 files, 3.6 kB in all, from a device that gave no name:',
        '  notes.txt (1.2 kB)',
        '  .ssh/authorized_keys (400 B) [hidden]',
        '  invoice.pdf.exe (2.0 kB) [executable]',
      ].join('\n'),
    );
  });

  it(`prints the first ${OFFER_FILES_PRINTED} names and counts the rest, flags included`, () => {
    const paths = [
      ...Array.from({ length: OFFER_FILES_PRINTED }, (_, index) => `scan-${index}.png`),
      'late/.profile',
      'late/setup.exe',
      'late/readme.txt',
    ];
    const files = offerFileViews(
      paths.map((path) => ({ path, size: 10 })),
      'unknown',
    );
    const lines = describeOffer({
      peerCheck: UNVERIFIED,
      firstFileName: 'scan-0.png',
      fileCount: paths.length,
      totalBytes: paths.length * 10,
      files,
    }).split('\n');
    expect(lines).toHaveLength(1 + OFFER_FILES_PRINTED + 1);
    expect(lines.at(-1)).toBe('  and 3 more files [1 hidden, 1 executable]');
  });

  it('counts the files a list cut short did not name', () => {
    const files = offerFileViews([{ path: 'a.txt', size: 1 }], 'unknown');
    expect(
      describeOffer({
        peerCheck: UNVERIFIED,
        firstFileName: 'a.txt',
        fileCount: 4,
        totalBytes: 4,
        files,
      }).split('\n'),
    ).toEqual([
      'Incoming: 4 files, 4 B in all, from a device that gave no name:',
      '  a.txt (1 B)',
      '  and 3 files the sender did not list',
    ]);
  });

  it('flags a single listed file on its one line', () => {
    const files = offerFileViews([{ path: 'run.command', size: 5 }], 'unknown');
    expect(
      describeOffer({
        peerCheck: UNVERIFIED,
        firstFileName: 'run.command',
        fileCount: 1,
        totalBytes: 5,
        files,
      }),
    ).toBe(
      'Incoming: 1 file, 5 B in all, "run.command" [executable], from a device that gave no name.',
    );
  });
});
