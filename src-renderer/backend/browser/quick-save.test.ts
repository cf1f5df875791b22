import { afterEach, describe, expect, it, vi } from 'vitest';
import { directoryOf, type RememberedDevice } from '../../../src-shared/devices/remembered-devices';
import type { OfferView } from '../../../src-shared/transfer/transfer-view';
import { BO_PRINT, CY_PRINT } from '../../testing/fixtures';
import { MemoryFolder } from '../../testing/memory-folder';
import { NO_FOLDER_FOR_QUICK_SAVE, quickSaveTarget } from './quick-save';
import { SaveChoice } from './save-choice';

// A remembered device's quick save in the page (docs/protocol.md, "Remembered devices"): into
// the folder the person chose, never into the browser's downloads.

const CAP = 1_000_000;
const devices: RememberedDevice[] = [
  { fingerprint: BO_PRINT, name: 'Bo’s laptop', autoAccept: true, rememberedAt: 0 },
  { fingerprint: CY_PRINT, name: 'Cy’s phone', autoAccept: false, rememberedAt: 0 },
];

function offerFrom(fingerprint: string, extra: Partial<OfferView> = {}): OfferView {
  return {
    firstFileName: 'beach.jpg',
    fileCount: 1,
    totalBytes: 500_000,
    peerCheck: { kind: 'device', name: 'a name', fingerprint },
    ...extra,
  };
}

/** What quick save did with `offer` on a page that chose `chosen` (a folder name) or nothing. */
async function quickSave(offer: OfferView, chosen?: string) {
  const saving = new SaveChoice(Promise.resolve(undefined), false);
  if (chosen !== undefined) {
    vi.stubGlobal('showDirectoryPicker', () => Promise.resolve(new MemoryFolder(chosen)));
    await saving.chooseFolder();
  }
  const warnings: string[] = [];
  const target = quickSaveTarget(offer, {
    directory: directoryOf(devices),
    maxBytes: CAP,
    chosenFolder: () => saving.chosenFolder(),
    warn: (message) => warnings.push(message),
  });
  return { savedTo: target?.label, warnings };
}

describe('quick save from a remembered device, in the page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('saves the offer unasked into the folder the person chose', async () => {
    expect(await quickSave(offerFrom(BO_PRINT), 'Inbox')).toEqual({
      savedTo: 'Inbox',
      warnings: [],
    });
  });

  it('asks where no folder is chosen, never saving into the downloads, and says why', async () => {
    expect(await quickSave(offerFrom(BO_PRINT))).toEqual({
      savedTo: undefined,
      warnings: [NO_FOLDER_FOR_QUICK_SAVE],
    });
  });

  it('asks about a device not set to quick save, a batch over the cap and a text, silently', async () => {
    const asked = { savedTo: undefined, warnings: [] };
    expect(await quickSave(offerFrom(CY_PRINT), 'Inbox')).toEqual(asked);
    expect(await quickSave(offerFrom(BO_PRINT, { totalBytes: CAP + 1 }), 'Inbox')).toEqual(asked);
    expect(await quickSave(offerFrom(BO_PRINT, { textMessage: true }), 'Inbox')).toEqual(asked);
    expect(
      await quickSave(
        offerFrom(BO_PRINT, { peerCheck: { kind: 'words', words: 'a b c' } }),
        'Inbox',
      ),
    ).toEqual(asked);
  });
});
