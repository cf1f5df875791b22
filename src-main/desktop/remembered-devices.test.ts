import { describe, expect, it } from 'vitest';
import type { DevicesView } from '../../src-shared/ipc/contract';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { useDesktopOnLoopback } from './test-support/desktop-on-loopback';
import {
  deviceTransfers,
  devicesOf,
  doneOf,
  offerOf,
  valueOf,
} from './test-support/device-transfers';

// Every remembered desktop app also waits in its devices' pair rooms, one socket each: the many
// transfers of this file from one address stay under the server's per-address limit.
const rig = useLoopbackRig({ maxConnectionsPerIp: 120 });

const desktop = useDesktopOnLoopback(rig);

const notVerified = {
  ok: false,
  error: {
    code: 'ERR_NOT_VERIFIED',
    message: 'Only a device this transfer verified can be remembered.',
  },
};

const { computer, sendTo, rememberAfterTransfer } = deviceTransfers(rig);

describe('remembering the device on the other end of a transfer', () => {
  it('is refused until a transfer verified it, and then remembers it by its certificate', async () => {
    const app = await desktop('remember');
    const laptop = await computer('remember', 'Laptop');

    expect(await app.call('rememberPeer', { name: 'Laptop' })).toEqual(notVerified);

    // A sender that cannot show words: nothing proves who it is.
    const unverified = await sendTo(app, undefined, 'unverified.txt');
    expect(offerOf(unverified.views)).toMatchObject({
      offer: { peerCheck: { kind: 'unverified' } },
    });
    expect(doneOf(unverified.views).peer?.check.kind ?? 'unverified').toBe('unverified');
    expect(await app.call('rememberPeer', { name: 'Laptop' })).toEqual(notVerified);
    expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });

    const verified = await sendTo(app, laptop, 'verified.txt');
    expect(offerOf(verified.views)).toMatchObject({ offer: { peerCheck: { kind: 'words' } } });
    expect(doneOf(verified.views).peer).toMatchObject({
      fingerprint: laptop.identity.fingerprint,
      check: { kind: 'words' },
      announcedName: 'Laptop',
    });
    const remembered = await app.call('rememberPeer', { name: '  Kitchen   laptop ' });
    const expected: DevicesView = {
      ownName: expect.any(String) as string,
      remembered: [
        {
          fingerprint: laptop.identity.fingerprint,
          name: 'Kitchen laptop',
          autoAccept: false,
          rememberedAt: expect.any(Number) as number,
        },
      ],
    };
    expect(remembered).toEqual({ ok: true, value: expected });
    expect(app.devicesChanged).toEqual([expected]);
    expect(await devicesOf(app)).toEqual(expected);

    // Once the window has left the transfer, there is nothing to remember any more.
    expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });
    expect(await app.call('rememberPeer', { name: 'Laptop' })).toEqual(notVerified);
    expect(await devicesOf(app)).toEqual(expected);
  });
});

describe('offers from a remembered device', () => {
  it('with auto-accept on, arrive without asking; a stranger is still asked', async () => {
    const app = await desktop('auto');
    const laptop = await computer('auto', 'Laptop');
    const stranger = await computer('auto', 'Stranger');
    await rememberAfterTransfer(app, laptop, 'Laptop');
    const turnedOn = await app.call('setDeviceAutoAccept', {
      fingerprint: laptop.identity.fingerprint,
      autoAccept: true,
    });
    expect(turnedOn).toMatchObject({ ok: true, value: { remembered: [{ autoAccept: true }] } });
    expect(app.devicesChanged.at(-1)).toEqual(valueOf(turnedOn));

    const quick = await sendTo(app, laptop, 'holiday.jpg');
    expect(quick.views.map((view) => view.phase)).not.toContain('awaiting-acceptance');
    const device = { kind: 'device', name: 'Laptop', fingerprint: laptop.identity.fingerprint };
    expect(quick.views).toContainEqual(
      expect.objectContaining({
        phase: 'transferring',
        peerCheck: expect.objectContaining(device),
      }),
    );
    expect(doneOf(quick.views)).toMatchObject({ folder: app.downloads, peer: { check: device } });
    expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });

    const asked = await sendTo(app, stranger, 'unknown.exe');
    expect(offerOf(asked.views)).toMatchObject({ offer: { peerCheck: { kind: 'words' } } });
  });

  it('with auto-accept off, are asked about, the device named instead of words to compare', async () => {
    const app = await desktop('named');
    const laptop = await computer('named', 'Laptop');
    await rememberAfterTransfer(app, laptop, 'Laptop');

    const asked = await sendTo(app, laptop, 'notes.txt');
    expect(offerOf(asked.views)).toMatchObject({
      offer: {
        peerCheck: { kind: 'device', name: 'Laptop', fingerprint: laptop.identity.fingerprint },
      },
    });
  });
});

describe('the remembered devices', () => {
  it('outlive the app, and a forgotten device is a stranger again', async () => {
    const laptop = await computer('kept', 'Laptop');
    const first = await desktop('kept');
    await rememberAfterTransfer(first, laptop, 'Laptop');
    const listed = valueOf<DevicesView>(
      await first.call('setDeviceAutoAccept', {
        fingerprint: laptop.identity.fingerprint,
        autoAccept: true,
      }),
    );
    await first.close();

    const again = await desktop('kept');
    expect(await devicesOf(again)).toEqual(listed);
    const quick = await sendTo(again, laptop, 'after-restart.txt');
    expect(offerOf(quick.views)).toBeUndefined();
    expect(doneOf(quick.views).peer?.check).toMatchObject({ kind: 'device', name: 'Laptop' });
    expect(await again.call('dismissTransfer', {})).toEqual({ ok: true, value: null });

    const forgotten = await again.call('forgetDevice', {
      fingerprint: laptop.identity.fingerprint,
    });
    expect(forgotten).toEqual({ ok: true, value: { ownName: listed.ownName, remembered: [] } });
    expect(again.devicesChanged).toEqual([valueOf(forgotten)]);
    const asked = await sendTo(again, laptop, 'after-forget.txt');
    expect(offerOf(asked.views)).toMatchObject({ offer: { peerCheck: { kind: 'words' } } });
    expect(doneOf(asked.views).peer?.check.kind).toBe('words');
  });

  it('keep their names unique: a rename to a name another device has is refused', async () => {
    const app = await desktop('names');
    const laptop = await computer('names', 'Laptop');
    const desk = await computer('names', 'Desk');
    await rememberAfterTransfer(app, laptop, 'Laptop');
    const both = await rememberAfterTransfer(app, desk, 'Desk');
    expect(both.remembered.map((device) => device.name)).toEqual(['Laptop', 'Desk']);
    const pushed = app.devicesChanged.length;

    const taken = await app.call('renameDevice', {
      fingerprint: desk.identity.fingerprint,
      name: 'LAPTOP',
    });
    expect(taken).toEqual({
      ok: false,
      error: { code: 'ERR_DEVICE_LIST', message: 'another device is remembered as “Laptop”' },
    });
    expect(await devicesOf(app)).toEqual(both);
    expect(app.devicesChanged).toHaveLength(pushed);

    const renamed = await app.call('renameDevice', {
      fingerprint: desk.identity.fingerprint,
      name: 'Study desk',
    });
    expect(renamed).toMatchObject({
      ok: true,
      value: { remembered: [{ name: 'Laptop' }, { name: 'Study desk' }] },
    });
    expect(app.devicesChanged.at(-1)).toEqual(valueOf(renamed));
  });
});

describe('names (docs/protocol.md, "The name shown")', () => {
  it('the prompt carries the name the sender gave; this computer’s own name is kept, cleaned, when the app opens again', async () => {
    const app = await desktop('own-name');
    const laptop = await computer('own-name', 'Ana laptop');
    const sent = await sendTo(app, laptop, 'named.txt');
    expect(offerOf(sent.views)).toMatchObject({ offer: { announcedName: 'Ana laptop' } });
    expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });

    expect(await app.call('renameSelf', { name: '  Bea’s \n desk ' })).toMatchObject({
      ok: true,
      value: { ownName: 'Bea’s desk' },
    });
    await app.close();
    const again = await desktop('own-name');
    expect((await devicesOf(again)).ownName).toBe('Bea’s desk');
  });
});
