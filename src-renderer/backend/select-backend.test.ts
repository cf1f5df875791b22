import { describe, expect, it } from 'vitest';
import type { FerryBridge } from '../../src-shared/ipc/contract';
import { selectBackend } from './select-backend';
import { ERR_UNAVAILABLE, UNAVAILABLE_MESSAGE } from './unavailable-backend';

describe('choosing the backend', () => {
  it('uses the desktop app when the preload exposed its bridge', () => {
    const bridge = {
      invoke: {},
      on: () => undefined,
      pathForFile: () => '',
    } as unknown as FerryBridge;
    const backend = selectBackend({ ferry: bridge });
    expect(backend.surface).toBe('desktop');
    expect(backend.capabilities).toEqual({
      lanRoom: true,
      chooseDestination: true,
      revealFiles: true,
      settings: true,
    });
  });

  it('in a plain browser, says for every action that this build has no browser peer', async () => {
    const backend = selectBackend({});
    expect(backend.surface).toBe('browser');
    const refused = { ok: false, error: { code: ERR_UNAVAILABLE, message: UNAVAILABLE_MESSAGE } };
    const answers = await Promise.all([
      backend.snapshot(),
      backend.pickFiles(),
      backend.pickFolder(),
      backend.addDropped({ files: [] } as unknown as DataTransfer),
      backend.startSend([]),
      backend.startReceive('acid-otter-plank'),
      backend.answerOffer(true),
      backend.chooseDownloadFolder(),
      backend.cancel(),
      backend.dismiss(),
      backend.updateSettings({}),
      backend.setLanRoom(true),
      backend.openFolder('/'),
      backend.revealFile('/'),
    ]);
    for (const answer of answers) expect(answer).toEqual(refused);
  });
});
