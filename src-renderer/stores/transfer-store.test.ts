import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { IDLE_TRANSFER } from '../../src-shared/transfer/transfer-view';
import { OFFER, PHOTO, PROGRESS } from '../testing/fixtures';
import { createScriptedBackend } from '../testing/scripted-backend';
import { createNoticeStore } from './notice-store';
import { createTransferStore } from './transfer-store';

function setUp() {
  const backend = createScriptedBackend();
  const notice = createNoticeStore();
  return { backend, notice, transfer: createTransferStore(backend, notice) };
}

describe('the transfer store', () => {
  it('sends the canonical code whatever was typed', async () => {
    const { backend, transfer } = setUp();
    await transfer.getState().startReceive('  Acid OTTER–plank ');
    expect(backend.callsOf('startReceive')).toEqual([['acid-otter-plank']]);
  });

  it('is pending while a start is on its way', async () => {
    const { backend, transfer } = setUp();
    const release = backend.hold('startSend');
    const starting = transfer.getState().startSend([PHOTO]);
    expect(transfer.getState().pending).toBe(true);
    release(ok(null));
    await starting;
    expect(transfer.getState().pending).toBe(false);
    expect(backend.callsOf('startSend')).toEqual([[[PHOTO]]]);
  });

  it('accepts into the folder picked for this offer, and declines without one', async () => {
    const { backend, transfer } = setUp();
    transfer.getState().apply(OFFER);
    backend.respond('chooseDestination', ok('/media/usb'));
    await transfer.getState().changeDestination();
    expect(transfer.getState().destination).toBe('/media/usb');
    await transfer.getState().answerOffer(false);
    await transfer.getState().answerOffer(true);
    expect(backend.callsOf('answerOffer')).toEqual([
      [false, undefined],
      [true, '/media/usb'],
    ]);
  });

  it('accepts into the default folder when none was picked or the picker was closed', async () => {
    const { backend, transfer } = setUp();
    transfer.getState().apply(OFFER);
    await transfer.getState().changeDestination();
    await transfer.getState().answerOffer(true);
    expect(backend.callsOf('answerOffer')).toEqual([[true, undefined]]);
  });

  it('forgets the picked folder once the offer is answered', () => {
    const { transfer } = setUp();
    transfer.getState().apply(OFFER);
    transfer.setState({ destination: '/media/usb' });
    transfer.getState().apply({ phase: 'transferring', direction: 'receive', progress: PROGRESS });
    expect(transfer.getState().destination).toBeNull();
  });

  it('shows a refused action as a notice and keeps the view', async () => {
    const { backend, notice, transfer } = setUp();
    backend.respond('startSend', err('ERR_BUSY', 'A transfer is already running'));
    await transfer.getState().startSend([PHOTO]);
    expect(notice.getState().notice?.message).toBe('A transfer is already running');
    expect(transfer.getState().view).toEqual(IDLE_TRANSFER);
  });

  it('says whether dismissing worked', async () => {
    const { backend, transfer } = setUp();
    expect(await transfer.getState().dismiss()).toBe(true);
    backend.respond('dismiss', err('ERR_INTERNAL', 'Something went wrong inside Ferry'));
    expect(await transfer.getState().dismiss()).toBe(false);
  });
});
