import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesktopSnapshot, DevicesView } from '../../src-shared/ipc/contract';
import type { IpcResult } from '../../src-shared/ipc/result';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { openInstallation, type Installation } from '../devices/installation';
import { startSender } from '../engine/test-support/transfer-pair';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { ERR_DEVICE_LIST, ERR_NOT_VERIFIED } from './desktop-controller';
import { useDesktopOnLoopback, type DesktopOnLoopback } from './test-support/desktop-on-loopback';

const rig = useLoopbackRig();

const desktop = useDesktopOnLoopback(rig);

const notVerified = {
  ok: false,
  error: {
    code: ERR_NOT_VERIFIED,
    message: 'Only a device this transfer verified can be remembered.',
  },
};

/** Another computer with Ferry installed: its own certificate, kept in its own folder. */
const computer = (folder: string, name: string): Promise<Installation> =>
  openInstallation(join(rig.scratch.path, folder, 'computers', name), name);

interface Sent {
  /** What the app showed while it received, in order. */
  views: TransferView[];
}

let sources = 0;

/**
 * `from` sends one file to `app`, which receives it by the code; when the app asks, the person
 * says yes. `from` undefined: a sender that offers none of Ferry's extensions, so no words.
 * Resolves once both ends are finished.
 */
async function sendTo(
  app: DesktopOnLoopback,
  from: Installation | undefined,
  name: string,
): Promise<Sent> {
  const source = join(rig.scratch.path, 'sources', String((sources += 1)), name);
  await writeTextFile(source, `the contents of ${name}`);
  const { sender, code } = await startSender(rig.server.url, {
    paths: [source],
    iceServers: [],
    ...(from === undefined
      ? { extensions: false }
      : { identity: { pemFile: from.identity.pemFile, devices: from.setting } }),
  });
  const views: TransferView[] = [];
  const answered = (result: IpcResult<unknown>) =>
    expect(result).toEqual({ ok: true, value: null });
  const ended = new Promise<void>((resolve) => {
    const stop = app.controller.onEvent((channel, payload) => {
      if (channel !== 'transferState') return;
      const view = payload as TransferView;
      views.push(view);
      // The person answers the moment the question shows.
      if (view.phase === 'awaiting-acceptance') {
        void app.call('answerOffer', { accept: true }).then(answered);
      }
      if (view.phase === 'done' || view.phase === 'failed') {
        stop();
        resolve();
      }
    });
  });
  expect(await app.call('startReceive', { code })).toEqual({ ok: true, value: null });
  await Promise.all([ended, sender.finished, app.controller.settled()]);
  expect(views.at(-1)).toMatchObject({ phase: 'done' });
  expect(await readFile(join(app.downloads, name), 'utf8')).toBe(`the contents of ${name}`);
  return { views };
}

const offerOf = (views: TransferView[]) =>
  views.find((view) => view.phase === 'awaiting-acceptance');
const doneOf = (views: TransferView[]) => {
  const done = views.at(-1);
  if (done?.phase !== 'done') throw new Error('the transfer did not finish');
  return done;
};

const valueOf = <T>(result: IpcResult<unknown>): T => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
};

const devicesOf = async (app: DesktopOnLoopback): Promise<DevicesView> =>
  valueOf<DesktopSnapshot>(await app.call('getSnapshot', {})).devices;

/** `from` sends once with the person's yes, and is remembered as `name`. */
async function rememberAfterTransfer(
  app: DesktopOnLoopback,
  from: Installation,
  name: string,
): Promise<DevicesView> {
  await sendTo(app, from, `first-from-${name}.txt`);
  const devices = valueOf<DevicesView>(await app.call('rememberPeer', { name }));
  expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });
  return devices;
}

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
      error: { code: ERR_DEVICE_LIST, message: 'another device is remembered as “Laptop”' },
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
