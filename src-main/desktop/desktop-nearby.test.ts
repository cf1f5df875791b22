import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NearbyView } from '../../src-shared/app/nearby-core';
import type { DevicesView, LanRoomView } from '../../src-shared/ipc/contract';
import type { PresenceEntry, PresenceSeat } from '../../src-shared/nearby/nearby-ports';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { openNativePresence, receiveFiles } from '../engine';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { devicesOf, valueOf } from './test-support/device-transfers';
import { useDesktopOnLoopback, type DesktopOnLoopback } from './test-support/desktop-on-loopback';

// The desktop app's nearby devices (docs/architecture.md, "Nearby devices", the desktop app): the
// real controller through the IPC dispatch, its LAN room and the signaling server on loopback.

const rig = useLoopbackRig();
const desktop = useDesktopOnLoopback(rig);

const ok = { ok: true, value: null };

/** Resolves with the roster `seat` holds once it matches. */
function rosterWhere(
  seat: PresenceSeat,
  matches: (devices: readonly PresenceEntry[]) => boolean,
): Promise<readonly PresenceEntry[]> {
  return new Promise((resolve) => {
    if (matches(seat.devices())) resolve(seat.devices());
    const stop = seat.onChange((devices) => {
      if (!matches(devices)) return;
      stop();
      resolve(devices);
    });
  });
}

/** The app's LAN room, turned on. */
async function hostRoom(app: DesktopOnLoopback): Promise<string> {
  const room = valueOf<LanRoomView>(await app.call('setLanRoom', { enabled: true }));
  if (room.state !== 'on') throw new Error(`the LAN room did not start: ${JSON.stringify(room)}`);
  return room.url;
}

/** A command line in the room: on its roster as `build-box`. */
async function commandLineIn(url: string): Promise<PresenceSeat> {
  const seat = await openNativePresence(url)(
    { name: 'build-box', kind: 'cli' },
    new AbortController().signal,
  );
  if (seat === undefined) throw new Error('the LAN room keeps no roster');
  return seat;
}

const nearbyNamed = (view: NearbyView, name: string) =>
  view.devices.find((device) => device.name === name);

/** A chosen file, handed out by main's file dialog as the person picks it. */
async function pickedFile(app: DesktopOnLoopback, name: string, text: string): Promise<string> {
  const path = join(rig.scratch.path, 'sources', name);
  await writeTextFile(path, text);
  app.dialog.files = [path];
  expect(await app.call('pickFiles', {})).toMatchObject({ ok: true });
  return path;
}

describe("the desktop app's LAN room roster", () => {
  it('lists the app while it hosts, and shows a command line in the room until it leaves', async () => {
    const app = await desktop('nearby-roster');
    const { ownName } = await devicesOf(app);
    const cli = await commandLineIn(await hostRoom(app));

    const roster = await rosterWhere(cli, (devices) => devices.length > 0);
    expect(roster).toEqual([{ id: expect.any(String), name: ownName, kind: 'desktop' }]);
    const shown = await app.nearbyWhere((view) => nearbyNamed(view, 'build-box') !== undefined);
    expect(shown).toEqual({
      inRoom: true,
      devices: [
        {
          key: `room:${cli.self}`,
          name: 'build-box',
          kind: 'cli',
          shortId: cli.self,
          via: 'room',
          online: true,
        },
      ],
    });

    // It left while the person was choosing: greyed out, and refused if chosen.
    cli.close();
    await app.nearbyWhere((view) => nearbyNamed(view, 'build-box')?.online === false);
    expect(
      await app.call('startSendNearby', { key: `room:${cli.self}`, text: 'still there?' }),
    ).toMatchObject({ ok: false, error: { code: 'ERR_DEVICE_GONE' } });

    // The room off, the app leaves its roster: the server it met others on is gone.
    expect(await app.call('setLanRoom', { enabled: false })).toMatchObject({ ok: true });
    await app.nearbyWhere((view) => !view.inRoom);
  });

  it('sends the chosen file to the device chosen, with no code, and it arrives whole', async () => {
    const app = await desktop('nearby-send');
    const cli = await commandLineIn(await hostRoom(app));
    const url = (await app.call('getSnapshot', {})) as { value: { lanRoom: { url: string } } };
    const destination = join(rig.scratch.path, 'nearby-send', 'cli-downloads');
    // The command line answers the invitation as `ferry receive --listen --yes` does.
    const received = new Promise<TransferView>((resolve) => {
      cli.onInvite(({ roomId }) => {
        const receiver = receiveFiles({
          serverUrl: url.value.lanRoom.url,
          code: '',
          roomId,
          destination,
          iceServers: [],
          remedySurface: 'cli',
        });
        void receiver.finished.then(resolve);
      });
    });
    const path = await pickedFile(app, 'report.txt', 'the numbers, verified');
    const view = await app.nearbyWhere((v) => nearbyNamed(v, 'build-box') !== undefined);
    const key = nearbyNamed(view, 'build-box')?.key ?? '';

    // A path main never handed out is refused as for any send.
    expect(
      await app.call('startSendNearby', { key, paths: [join(rig.scratch.path, 'other.txt')] }),
    ).toMatchObject({ ok: false, error: { code: 'ERR_PATH_NOT_CHOSEN' } });

    const waiting = app.nextView((v) => v.phase === 'waiting-for-peer');
    const done = app.nextView((v) => v.phase === 'done' || v.phase === 'failed');
    expect(await app.call('startSendNearby', { key, paths: [path] })).toEqual(ok);
    expect(await waiting).toMatchObject({ to: 'build-box' });
    expect(await done).toMatchObject({ phase: 'done', direction: 'send' });
    expect(await received).toMatchObject({ phase: 'done' });
    expect(await readFile(join(destination, 'report.txt'), 'utf8')).toBe('the numbers, verified');
    cli.close();
    await app.controller.settled();
  });
});

/** `from` sends a file to `to` by its code; both say yes and remember each other. */
async function rememberEachOther(
  from: DesktopOnLoopback,
  fromName: string,
  to: DesktopOnLoopback,
  toName: string,
): Promise<{ fromKey: string; toKey: string }> {
  const path = await pickedFile(from, `first-${fromName}.txt`, 'hello');
  const coded = from.nextView((v) => v.phase === 'waiting-for-peer');
  expect(await from.call('startSend', { paths: [path] })).toEqual(ok);
  const shown = await coded;
  if (shown.phase !== 'waiting-for-peer') throw new Error('unreachable');
  const asked = to.nextView((v) => v.phase === 'awaiting-acceptance');
  const sent = from.nextView((v) => v.phase === 'done');
  const received = to.nextView((v) => v.phase === 'done');
  expect(await to.call('startReceive', { code: shown.code })).toEqual(ok);
  await asked;
  expect(await to.call('answerOffer', { accept: true })).toEqual(ok);
  await Promise.all([sent, received]);
  const fromKnows = valueOf<DevicesView>(await from.call('rememberPeer', { name: toName }));
  const toKnows = valueOf<DevicesView>(await to.call('rememberPeer', { name: fromName }));
  // The pair secret stays in main: the window never sees it.
  expect(fromKnows.remembered[0]).not.toHaveProperty('pairSecret');
  await Promise.all([from.controller.settled(), to.controller.settled()]);
  expect(await from.call('dismissTransfer', {})).toEqual(ok);
  expect(await to.call('dismissTransfer', {})).toEqual(ok);
  return {
    toKey: `pair:${fromKnows.remembered[0]?.fingerprint ?? ''}`,
    fromKey: `pair:${toKnows.remembered[0]?.fingerprint ?? ''}`,
  };
}

describe('remembered desktop apps', () => {
  it('show each other online from their pair room, send with no code, and part on forget', async () => {
    const laptop = await desktop('pair-laptop');
    const studio = await desktop('pair-studio');
    const keys = await rememberEachOther(laptop, 'Laptop', studio, 'Studio');
    const { toKey: studioKey, fromKey: laptopKey } = keys;

    const online = await laptop.nearbyWhere((view) =>
      view.devices.some((device) => device.key === studioKey && device.online),
    );
    expect(online.devices).toContainEqual({
      key: studioKey,
      name: 'Studio',
      kind: 'remembered',
      via: 'pair',
      online: true,
    });

    // One click: the studio gets the normal prompt, pinned to the laptop, and no code was typed.
    const path = await pickedFile(laptop, 'mix.txt', 'the final mix');
    const asked = studio.nextView((v) => v.phase === 'awaiting-acceptance');
    const sent = laptop.nextView((v) => v.phase === 'done' || v.phase === 'failed');
    expect(await laptop.call('startSendNearby', { key: studioKey, paths: [path] })).toEqual(ok);
    expect(await asked).toMatchObject({
      offer: { peerCheck: { kind: 'device', name: 'Laptop' } },
    });
    const received = studio.nextView((v) => v.phase === 'done');
    expect(await studio.call('answerOffer', { accept: true })).toEqual(ok);
    expect(await sent).toMatchObject({ phase: 'done' });
    await received;
    expect(await readFile(join(studio.downloads, 'mix.txt'), 'utf8')).toBe('the final mix');
    await Promise.all([laptop.controller.settled(), studio.controller.settled()]);

    // The studio forgets the laptop: it leaves their pair room, so the laptop sees it go.
    await studio.nearbyWhere((view) => view.devices.some((d) => d.key === laptopKey));
    const fingerprint = laptopKey.slice('pair:'.length);
    expect(await studio.call('forgetDevice', { fingerprint })).toMatchObject({ ok: true });
    await laptop.nearbyWhere((view) =>
      view.devices.every((device) => device.key !== studioKey || !device.online),
    );
  });
});
