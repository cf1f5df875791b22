import { describe, expect, it } from 'vitest';
import { NO_NEARBY } from '../../src-shared/app/nearby-core';
import type { EventContract, FerryBridge } from '../../src-shared/ipc/contract';
import { IDLE_TRANSFER } from '../../src-shared/transfer/transfer-view';
import { TEST_SETTINGS } from '../testing/scripted-backend';
import { TEST_DEVICES, TEST_FINGERPRINT, testBridge } from '../testing/test-bridge';
import { createDesktopBackend } from './desktop-backend';
import type { BackendEvent } from './ferry-backend';

const dropOf = (...names: string[]): DataTransfer =>
  ({ files: names.map((name) => new File(['x'], name)) }) as unknown as DataTransfer;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the desktop backend over the preload bridge', () => {
  it('describes the paths Ferry was opened with as items to send', async () => {
    const { bridge } = testBridge({
      getSnapshot: async () => ({
        transfer: IDLE_TRANSFER,
        lanRoom: { state: 'off' },
        discoveredRooms: [],
        settings: TEST_SETTINGS,
        devices: TEST_DEVICES,
        history: [],
        pendingPaths: ['/home/ana/report.pdf'],
        nearby: NO_NEARBY,
      }),
    });
    const snapshot = await createDesktopBackend(bridge).snapshot();
    expect(snapshot.ok && snapshot.value.devices).toEqual(TEST_DEVICES);
    expect(snapshot.ok && (await snapshot.value.opened)).toEqual({
      ok: true,
      value: [
        {
          id: '/home/ana/report.pdf',
          name: 'report.pdf',
          size: 10,
          isDirectory: false,
          fileCount: 1,
        },
      ],
    });
  });

  it('asks for no description when nothing was opened with the app', async () => {
    const { bridge, requests } = testBridge();
    const snapshot = await createDesktopBackend(bridge).snapshot();
    expect(snapshot.ok && (await snapshot.value.opened)).toEqual({ ok: true, value: [] });
    expect(requests.map((r) => r.channel)).toEqual(['getSnapshot']);
  });

  it('turns dropped files into their paths and lets main describe them', async () => {
    const { bridge, requests } = testBridge();
    const result = await createDesktopBackend(bridge).addDropped(dropOf('a.txt', 'b.txt'));
    expect(requests.at(-1)).toEqual({
      channel: 'describePaths',
      request: { paths: ['/home/ana/a.txt', '/home/ana/b.txt'] },
    });
    expect(result.ok && result.value.map((item) => item.id)).toEqual([
      '/home/ana/a.txt',
      '/home/ana/b.txt',
    ]);
  });

  it('refuses a drop that holds no file from this computer, without asking main', async () => {
    const { bridge, requests } = testBridge();
    const result = await createDesktopBackend(bridge).addDropped(dropOf('text:hello'));
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ERR_NOTHING_DROPPED',
        message: 'Only files and folders can be dropped here.',
      },
    });
    expect(requests).toEqual([]);
  });

  it('sends requests that pass main’s validation', async () => {
    const { bridge, requests } = testBridge();
    const backend = createDesktopBackend(bridge);
    const results = await Promise.all([
      backend.startSend([
        { id: '/home/ana/a.txt', name: 'a.txt', size: 1, isDirectory: false, fileCount: 1 },
      ]),
      backend.startReceive('acid-otter-plank'),
      backend.answerOffer(false),
      backend.answerOffer(true, '/media/usb'),
      backend.cancel(),
      backend.dismiss(),
      backend.openFolder('/home/ana/Downloads'),
      backend.revealFile('/home/ana/Downloads/a.txt'),
      backend.rememberPeer('Kitchen laptop'),
      backend.renameDevice(TEST_FINGERPRINT, 'Old laptop'),
      backend.setDeviceAutoAccept(TEST_FINGERPRINT, true),
      backend.forgetDevice(TEST_FINGERPRINT),
    ]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(requests).toEqual([
      { channel: 'startSend', request: { paths: ['/home/ana/a.txt'] } },
      { channel: 'startReceive', request: { code: 'acid-otter-plank' } },
      { channel: 'answerOffer', request: { accept: false } },
      { channel: 'answerOffer', request: { accept: true, destination: '/media/usb' } },
      { channel: 'cancelTransfer', request: {} },
      { channel: 'dismissTransfer', request: {} },
      { channel: 'openFolder', request: { path: '/home/ana/Downloads' } },
      { channel: 'revealFile', request: { path: '/home/ana/Downloads/a.txt' } },
      // Which device to remember is main's to know: the window sends only the name.
      { channel: 'rememberPeer', request: { name: 'Kitchen laptop' } },
      { channel: 'renameDevice', request: { fingerprint: TEST_FINGERPRINT, name: 'Old laptop' } },
      {
        channel: 'setDeviceAutoAccept',
        request: { fingerprint: TEST_FINGERPRINT, autoAccept: true },
      },
      { channel: 'forgetDevice', request: { fingerprint: TEST_FINGERPRINT } },
    ]);
  });

  it('can accept offers from remembered devices without asking', () => {
    const backend = createDesktopBackend(testBridge().bridge);
    expect(backend.capabilities.autoAcceptFromDevices).toBe(true);
  });

  it('returns what main answers for pickers, folders, settings and the LAN room', async () => {
    const backend = createDesktopBackend(testBridge().bridge);
    expect(await backend.pickFiles()).toEqual({
      ok: true,
      value: [{ id: '/home/ana/a.txt', name: 'a.txt', size: 10, isDirectory: false, fileCount: 1 }],
    });
    expect(await backend.pickFolder()).toEqual({ ok: true, value: [] });
    expect(await backend.chooseDestination()).toEqual({ ok: true, value: '/media/usb' });
    expect(await backend.chooseDownloadFolder()).toEqual({
      ok: true,
      value: { ...TEST_SETTINGS, downloadFolder: '/media/usb' },
    });
    expect(await backend.updateSettings({ reportStats: false })).toEqual({
      ok: true,
      value: { ...TEST_SETTINGS, reportStats: false },
    });
    expect(await backend.rememberPeer('Kitchen laptop')).toEqual({
      ok: true,
      value: {
        ...TEST_DEVICES,
        remembered: [
          {
            fingerprint: TEST_FINGERPRINT,
            name: 'Kitchen laptop',
            autoAccept: false,
            rememberedAt: 0,
          },
        ],
      },
    });
    expect(await backend.setLanRoom(true)).toEqual({
      ok: true,
      value: { state: 'on', url: 'http://10.0.0.2:3001' },
    });
  });

  it('hands back main’s refusal as a value', async () => {
    const backend = createDesktopBackend(testBridge().bridge);
    const result = await backend.updateSettings({ serverUrl: 'ftp://nope' });
    expect(result.ok ? undefined : result.error.code).toBe('ERR_BAD_REQUEST');
    const notAFingerprint = await backend.forgetDevice('Kitchen laptop');
    expect(notAFingerprint.ok ? undefined : notAFingerprint.error.code).toBe('ERR_BAD_REQUEST');
  });

  it('turns a bridge that throws into an error value', async () => {
    const { bridge } = testBridge();
    const broken: FerryBridge = {
      ...bridge,
      invoke: {
        ...bridge.invoke,
        cancelTransfer: () =>
          Promise.reject(new Error("No handler registered for 'ferry:invoke:cancelTransfer'")),
      },
    };
    const result = await createDesktopBackend(broken).cancel();
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ERR_BRIDGE',
        message:
          "Ferry's window lost touch with the app (No handler registered for 'ferry:invoke:cancelTransfer'); restart Ferry.",
      },
    });
  });

  it('delivers pushed updates until the subscription is aborted', async () => {
    const { bridge, emit } = testBridge();
    const events: BackendEvent[] = [];
    const following = new AbortController();
    const subscribed = createDesktopBackend(bridge).subscribe(
      (e) => events.push(e),
      following.signal,
    );
    expect(subscribed.ok).toBe(true);

    emit('transferState', {
      phase: 'connecting',
      direction: 'receive',
      code: 'acid-otter-plank',
      stage: 'finding',
    });
    emit('lanRoomState', { state: 'starting' });
    emit('discoveredRooms', [{ name: 'Kitchen laptop', url: 'http://10.0.0.9:3001' }]);
    emit('sendPaths', { paths: ['/home/ana/b.txt'] });
    emit('transferWarning', { message: 'Photos/home was skipped: it is a link' });
    emit('devicesChanged', TEST_DEVICES);
    emit('historyChanged', []);
    await settle();
    expect(events).toEqual([
      {
        type: 'transfer',
        transfer: {
          phase: 'connecting',
          direction: 'receive',
          code: 'acid-otter-plank',
          stage: 'finding',
        },
      },
      { type: 'lan-room', lanRoom: { state: 'starting' } },
      {
        type: 'discovered-rooms',
        rooms: [{ name: 'Kitchen laptop', url: 'http://10.0.0.9:3001' }],
      },
      { type: 'warning', message: 'Photos/home was skipped: it is a link' },
      { type: 'devices', devices: TEST_DEVICES },
      { type: 'history', history: [] },
      {
        type: 'opened',
        opened: {
          ok: true,
          value: [
            { id: '/home/ana/b.txt', name: 'b.txt', size: 10, isDirectory: false, fileCount: 1 },
          ],
        },
      },
    ]);

    following.abort();
    emit('lanRoomState', { state: 'off' });
    emit('devicesChanged', TEST_DEVICES);
    emit('historyChanged', []);
    expect(events).toHaveLength(7);
  });

  it('stays quiet after abort even when the bridge keeps calling', () => {
    const { bridge } = testBridge();
    const kept: ((payload: EventContract['lanRoomState']) => void)[] = [];
    const leaky: FerryBridge = {
      ...bridge,
      on: (channel, listener) => {
        if (channel === 'lanRoomState')
          kept.push(listener as (payload: EventContract['lanRoomState']) => void);
        return () => undefined;
      },
    };
    const events: BackendEvent[] = [];
    const following = new AbortController();
    createDesktopBackend(leaky).subscribe((e) => events.push(e), following.signal);
    following.abort();
    kept.forEach((listener) => listener({ state: 'off' }));
    expect(events).toEqual([]);
  });

  it('reports a bridge that cannot subscribe instead of throwing', () => {
    const { bridge } = testBridge();
    const refusing: FerryBridge = {
      ...bridge,
      on: () => {
        throw new TypeError('the bridge is gone');
      },
    };
    const result = createDesktopBackend(refusing).subscribe(
      () => undefined,
      new AbortController().signal,
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ERR_BRIDGE',
        message: "Ferry's window lost touch with the app (the bridge is gone); restart Ferry.",
      },
    });
  });
});
