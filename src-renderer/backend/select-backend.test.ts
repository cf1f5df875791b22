import { describe, expect, it } from 'vitest';
import type { FerryBridge } from '../../src-shared/ipc/contract';
import { selectBackend } from './select-backend';

describe('choosing the backend', () => {
  it('uses the desktop app when the preload exposed its bridge', async () => {
    const bridge = {
      invoke: {},
      on: () => undefined,
      pathForFile: () => '',
    } as unknown as FerryBridge;
    const backend = await selectBackend({ ferry: bridge });
    expect(backend.surface).toBe('desktop');
    expect(backend.capabilities).toEqual({
      lanRoom: true,
      chooseDestination: true,
      defaultDestinationResumes: true,
      revealFiles: true,
      settings: true,
      autoAcceptFromDevices: true,
      plainHttpLimits: [],
    });
  });

  it("in a plain browser, uses the browser's own WebRTC, without desktop-only features", async () => {
    const backend = await selectBackend({});
    expect(backend.surface).toBe('browser');
    expect(backend.capabilities).toMatchObject({
      lanRoom: false,
      defaultDestinationResumes: false,
      revealFiles: false,
      settings: false,
      autoAcceptFromDevices: false,
    });
  });
});
