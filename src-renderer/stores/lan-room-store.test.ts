import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { createScriptedBackend, LAN_URL } from '../testing/scripted-backend';
import { createLanRoomStore } from './lan-room-store';
import { createNoticeStore } from './notice-store';

describe('the LAN room store', () => {
  it('shows the room the backend reports after switching', async () => {
    const backend = createScriptedBackend();
    const lanRoom = createLanRoomStore(backend, createNoticeStore());
    const release = backend.hold('setLanRoom');
    const switching = lanRoom.getState().setHosting(true);
    expect(lanRoom.getState().pending).toBe(true);
    release(ok({ state: 'on', url: LAN_URL }));
    await switching;
    expect(lanRoom.getState()).toMatchObject({
      pending: false,
      room: { state: 'on', url: LAN_URL },
    });
  });

  it('shows a refused switch as a notice', async () => {
    const backend = createScriptedBackend();
    const notice = createNoticeStore();
    const lanRoom = createLanRoomStore(backend, notice);
    backend.respond('setLanRoom', err('ERR_INTERNAL', 'Something went wrong inside Ferry'));
    await lanRoom.getState().setHosting(true);
    expect(lanRoom.getState().room).toEqual({ state: 'off' });
    expect(notice.getState().notice?.code).toBe('ERR_INTERNAL');
  });
});
