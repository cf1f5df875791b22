import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { useDesktopOnLoopback } from './test-support/desktop-on-loopback';

// The desktop app's side of a send to a nearby device (docs/architecture.md, "Nearby devices"),
// through the IPC dispatch: a device its list does not show is refused before anything starts.

const rig = useLoopbackRig();
const desktop = useDesktopOnLoopback(rig);

describe('a send to a nearby device from the desktop app', () => {
  it('shows nobody where no roster is kept, and refuses a device it does not list', async () => {
    const app = await desktop('nearby');
    const snapshot = await app.call('getSnapshot', {});
    expect(snapshot).toMatchObject({ ok: true, value: { nearby: { devices: [], inRoom: false } } });
    expect(await app.call('startSendNearby', { key: 'room:AB2CD3', text: 'hello' })).toEqual({
      ok: false,
      error: {
        code: 'ERR_DEVICE_GONE',
        message: 'That device is no longer nearby; choose another device, or send with a code.',
      },
    });
    expect(await app.call('getSnapshot', {})).toMatchObject({
      ok: true,
      value: { transfer: { phase: 'idle' } },
    });
  });
});
