import { describe, expect, it } from 'vitest';
import { offerFileViews } from './offer-files';
import type { OfferView } from './transfer-view';
import { offersZip, ZIP_OFFER_FILE_COUNT, zipName } from './zip-offer';

function offer(paths: string[], listed = true, fileCount = paths.length): OfferView {
  return {
    firstFileName: paths[0],
    fileCount,
    totalBytes: 0,
    peerCheck: { kind: 'unverified' },
    ...(listed
      ? {
          files: offerFileViews(
            paths.map((path) => ({ path, size: 0 })),
            'unknown',
          ),
        }
      : {}),
  };
}

const loose = (count: number): string[] =>
  Array.from({ length: count }, (_, index) => `photo-${index}.jpg`);

describe('when an offer saved as downloads is offered as one .zip', () => {
  it('offers it for a batch with folders, which separate downloads would flatten', () => {
    expect(offersZip(offer(['album/raw/2024/one.cr2']))).toBe(true);
    expect(offersZip(offer(['notes.txt', 'album/cover.jpg']))).toBe(true);
  });

  it('offers it from ZIP_OFFER_FILE_COUNT loose files on, not below', () => {
    expect(offersZip(offer(loose(ZIP_OFFER_FILE_COUNT - 1)))).toBe(false);
    expect(offersZip(offer(loose(ZIP_OFFER_FILE_COUNT)))).toBe(true);
  });

  it('reads the folders and the count of a sender that did not list its files', () => {
    expect(offersZip(offer(['album/one.jpg', 'album/two.jpg'], false))).toBe(true);
    expect(offersZip(offer(['one.jpg'], false, 2))).toBe(false);
    expect(offersZip(offer(['one.jpg'], false, ZIP_OFFER_FILE_COUNT))).toBe(true);
  });
});

describe('the .zip’s name', () => {
  it('is the one top folder’s, when every file is listed inside it', () => {
    expect(zipName(offer(['album/raw/one.cr2', 'album/cover.jpg']))).toBe('album.zip');
  });

  it('is the first name and how many more top-level files and folders, for a mixed batch', () => {
    const photos = Array.from({ length: 30 }, (_, index) => `holiday-photos/IMG_${index}.jpg`);
    expect(zipName(offer([...photos, ...loose(41)]))).toBe('holiday-photos-and-41-more.zip');
    expect(zipName(offer(['album/one.jpg', 'other/two.jpg']))).toBe('album-and-1-more.zip');
    expect(zipName(offer(['album/one.jpg', 'album-2/two.jpg']))).toBe('album-and-1-more.zip');
  });

  it('drops a first file’s extension, never a hidden name’s whole', () => {
    expect(zipName(offer(loose(12)))).toBe('photo-0-and-11-more.zip');
    expect(zipName(offer(['notes.tar.gz', 'album/a.jpg']))).toBe('notes.tar-and-1-more.zip');
    expect(zipName(offer(['.bashrc', 'album/a.jpg']))).toBe('.bashrc-and-1-more.zip');
  });

  it('counts files where only the first name is known', () => {
    expect(zipName(offer(['album/one.jpg'], false, 3))).toBe('album-and-2-more.zip');
    expect(zipName(offer(['album/one.jpg'], false, 1))).toBe('album.zip');
    expect(zipName(offer(['album/one.jpg', 'album/two.jpg'], true, 5))).toBe(
      'album-and-4-more.zip',
    );
  });
});
