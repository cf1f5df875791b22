import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { useDesktopOnLoopback } from './test-support/desktop-on-loopback';
import {
  deviceTransfers,
  devicesOf,
  doneOf,
  offerOf,
  valueOf,
} from './test-support/device-transfers';

const rig = useLoopbackRig();

const desktop = useDesktopOnLoopback(rig);

const { computer, sendTo, rememberAfterTransfer } = deviceTransfers(rig);

// A remembered device's quick save (docs/protocol.md, "Remembered devices"): turned on only with
// main's own confirmation, and only for batches up to the cap set in Settings.
describe('quick save from a remembered device', () => {
  it('get auto-accept only once the person confirms it in main', async () => {
    const app = await desktop('auto-confirm');
    const laptop = await computer('auto-confirm', 'Laptop');
    await rememberAfterTransfer(app, laptop, 'Laptop');
    app.dialog.confirms = false;
    const refused = await app.call('setDeviceAutoAccept', {
      fingerprint: laptop.identity.fingerprint,
      autoAccept: true,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ERR_CHANGE_NOT_CONFIRMED' } });
    expect(app.questions).toEqual([
      expect.objectContaining({ message: 'Accept files from “Laptop” without asking?' }),
    ]);
    expect((await devicesOf(app)).remembered).toMatchObject([{ autoAccept: false }]);

    // Still asked: nothing was turned on.
    const asked = await sendTo(app, laptop, 'still-asked.txt');
    expect(offerOf(asked.views)).toMatchObject({ offer: { peerCheck: { kind: 'device' } } });
  });

  it('with auto-accept on, a batch over the cap in Settings is asked about as usual', async () => {
    const app = await desktop('capped');
    const laptop = await computer('capped', 'Laptop');
    await rememberAfterTransfer(app, laptop, 'Laptop');
    valueOf(
      await app.call('setDeviceAutoAccept', {
        fingerprint: laptop.identity.fingerprint,
        autoAccept: true,
      }),
    );
    // `the contents of big.bin` is 23 bytes, `the contents of s.bin` 21.
    valueOf(await app.call('updateSettings', { autoAcceptMaxBytes: 22 }));

    const over = await sendTo(app, laptop, 'big.bin');
    expect(offerOf(over.views)).toMatchObject({
      offer: { totalBytes: 23, peerCheck: { kind: 'device', name: 'Laptop' } },
    });
    expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });

    const under = await sendTo(app, laptop, 's.bin');
    expect(offerOf(under.views)).toBeUndefined();
    expect(doneOf(under.views)).toMatchObject({ folder: app.downloads });
  });
});
