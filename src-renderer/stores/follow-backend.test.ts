import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { IDLE_TRANSFER } from '../../src-shared/transfer/transfer-view';
import { ALBUM, BO_PRINT, CODE, PHOTO, PROGRESS, WAITING_FOR_PEER } from '../testing/fixtures';
import {
  createScriptedBackend,
  LAN_URL,
  TEST_DEVICES,
  TEST_SETTINGS,
  testDevice,
  type ScriptedBackendOptions,
} from '../testing/scripted-backend';
import { createFerryStores } from './ferry-stores';
import { followBackend } from './follow-backend';

async function follow(options: ScriptedBackendOptions = {}) {
  const backend = createScriptedBackend(options);
  const stores = createFerryStores(backend);
  const following = new AbortController();
  await followBackend(stores, following.signal);
  return { backend, stores, following };
}

describe('following the backend', () => {
  it('starts from the snapshot and is then ready', async () => {
    const { stores } = await follow({
      snapshot: {
        lanRoom: { state: 'on', url: LAN_URL },
        discoveredRooms: [{ name: 'Studio', url: 'http://10.0.0.7:3001' }],
      },
    });
    expect(stores.session.getState().session).toEqual({ state: 'ready' });
    expect(stores.settings.getState().settings).toEqual(TEST_SETTINGS);
    expect(stores.devices.getState().devices).toEqual(TEST_DEVICES);
    expect(stores.lanRoom.getState().room).toEqual({ state: 'on', url: LAN_URL });
    expect(stores.lanRoom.getState().discovered).toHaveLength(1);
  });

  it('fails the session with the snapshot’s error', async () => {
    const { stores } = await follow({ snapshotResult: err('ERR_INTERNAL', 'engine down') });
    expect(stores.session.getState().session).toEqual({
      state: 'failed',
      error: { code: 'ERR_INTERNAL', message: 'engine down' },
    });
  });

  it('fails the session when updates cannot be followed', async () => {
    const { stores } = await follow({ subscribeResult: err('ERR_BRIDGE', 'no updates') });
    expect(stores.session.getState().session).toMatchObject({ state: 'failed' });
  });

  it('ignores a snapshot that arrives after it stopped following', async () => {
    const backend = createScriptedBackend();
    const stores = createFerryStores(backend);
    const following = new AbortController();
    const started = followBackend(stores, following.signal);
    following.abort();
    await started;
    expect(stores.session.getState().session).toEqual({ state: 'starting' });
  });

  it('applies every kind of update', async () => {
    const { backend, stores } = await follow();
    backend.emit({ type: 'transfer', transfer: WAITING_FOR_PEER });
    backend.emit({
      type: 'lan-room',
      lanRoom: { state: 'failed', message: 'port 3001 is in use' },
    });
    backend.emit({
      type: 'discovered-rooms',
      rooms: [{ name: 'Studio', url: 'http://10.0.0.7:3001' }],
    });
    backend.emit({ type: 'settings', settings: { ...TEST_SETTINGS, reportStats: false } });
    const devices = { ownName: 'Ana desktop', remembered: [testDevice('Bo phone', BO_PRINT)] };
    backend.emit({ type: 'devices', devices });
    expect(stores.transfer.getState().view).toEqual(WAITING_FOR_PEER);
    expect(stores.lanRoom.getState().room).toEqual({
      state: 'failed',
      message: 'port 3001 is in use',
    });
    expect(stores.lanRoom.getState().discovered).toEqual([
      { name: 'Studio', url: 'http://10.0.0.7:3001' },
    ]);
    expect(stores.settings.getState().settings?.reportStats).toBe(false);
    expect(stores.devices.getState().devices).toEqual(devices);
  });

  it('goes to the send screen with what the app was opened with', async () => {
    const { backend, stores } = await follow({ snapshot: { opened: ok([PHOTO]) } });
    expect(stores.selection.getState().items).toEqual([PHOTO]);
    stores.screen.getState().show('receive');
    backend.emit({ type: 'opened', opened: ok([ALBUM]) });
    expect(stores.selection.getState().items).toEqual([PHOTO, ALBUM]);
    expect(stores.screen.getState().screen).toBe('send');
  });

  it('keeps a running receive on screen when files are opened with the app', async () => {
    const { backend, stores } = await follow({
      snapshot: { transfer: { phase: 'transferring', direction: 'receive', progress: PROGRESS } },
    });
    backend.emit({ type: 'opened', opened: ok([ALBUM]) });
    expect(stores.screen.getState().screen).toBe('receive');
    expect(stores.selection.getState().items).toEqual([ALBUM]);
  });

  it('shows why opened files could not be read', async () => {
    const { stores } = await follow({
      snapshot: { opened: err('ERR_BAD_REQUEST', 'The describePaths request was malformed.') },
    });
    expect(stores.notice.getState().notice?.code).toBe('ERR_BAD_REQUEST');
  });

  it('shows the screen of a transfer already running when the window opens', async () => {
    const { stores } = await follow({
      snapshot: {
        transfer: { phase: 'connecting', direction: 'receive', code: CODE, stage: 'finding' },
      },
    });
    expect(stores.screen.getState().screen).toBe('receive');
  });

  it('leaves the person in settings while a transfer moves on', async () => {
    const { backend, stores } = await follow();
    stores.screen.getState().show('settings');
    backend.emit({ type: 'transfer', transfer: WAITING_FOR_PEER });
    expect(stores.screen.getState().screen).toBe('settings');
  });

  it('forgets what was sent once it is delivered, but keeps it after a failure', async () => {
    const { backend, stores } = await follow();
    stores.selection.getState().add([PHOTO]);
    backend.emit({
      type: 'transfer',
      transfer: { phase: 'failed', direction: 'send', code: 'ERR_PEER_CLOSED', message: 'x' },
    });
    expect(stores.selection.getState().items).toEqual([PHOTO]);
    backend.emit({
      type: 'transfer',
      transfer: { phase: 'done', direction: 'send', files: [], totalBytes: 0 },
    });
    expect(stores.selection.getState().items).toEqual([]);
  });

  it('forgets the typed code once it worked', async () => {
    const { backend, stores } = await follow();
    stores.codeDraft.getState().setDraft(CODE);
    backend.emit({
      type: 'transfer',
      transfer: { phase: 'done', direction: 'receive', files: [], totalBytes: 0 },
    });
    expect(stores.codeDraft.getState().draft).toBe('');
  });

  it('stops applying updates once aborted', async () => {
    const { backend, stores, following } = await follow();
    following.abort();
    backend.emit({ type: 'transfer', transfer: WAITING_FOR_PEER });
    expect(stores.transfer.getState().view).toEqual(IDLE_TRANSFER);
  });
});
