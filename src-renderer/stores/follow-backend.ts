import type { TransferView } from '../../src-shared/transfer/transfer-view';
import type {
  BackendEvent,
  BackendResult,
  BackendSnapshot,
  SelectedItem,
} from '../backend/ferry-backend';
import type { FerryStores } from './ferry-stores';
import { succeeded, TRANSFER_WARNING } from './notice-store';

/**
 * Keeps the stores in step with the backend until `signal` aborts. It subscribes before asking
 * for the snapshot so no change falls between the two; the snapshot answers after any event
 * sent before it was taken, so applying it on arrival never goes back in time, and every event
 * after it lands on top. Only what Ferry was opened with is applied later, once described.
 */
export async function followBackend(stores: FerryStores, signal: AbortSignal): Promise<void> {
  const { backend, session } = stores;
  const subscribed = backend.subscribe((event) => applyEvent(stores, event), signal);
  if (!subscribed.ok) {
    session.getState().fail(subscribed.error);
    return;
  }
  const snapshot = await backend.snapshot();
  if (signal.aborted) return;
  if (!snapshot.ok) {
    session.getState().fail(snapshot.error);
    return;
  }
  applySnapshot(stores, snapshot.value);
  const opened = await snapshot.value.opened;
  if (signal.aborted) return;
  applyOpened(stores, opened);
  session.getState().ready();
}

function applySnapshot(stores: FerryStores, snapshot: BackendSnapshot): void {
  stores.settings.getState().apply(snapshot.settings);
  stores.devices.getState().apply(snapshot.devices);
  stores.history.getState().apply(snapshot.history);
  stores.lanRoom.getState().applyRoom(snapshot.lanRoom);
  stores.lanRoom.getState().applyDiscovered(snapshot.discoveredRooms);
  stores.nearby.getState().apply(snapshot.nearby);
  applyTransfer(stores, snapshot.transfer);
}

function applyEvent(stores: FerryStores, event: BackendEvent): void {
  switch (event.type) {
    case 'transfer':
      return applyTransfer(stores, event.transfer);
    case 'lan-room':
      return stores.lanRoom.getState().applyRoom(event.lanRoom);
    case 'discovered-rooms':
      return stores.lanRoom.getState().applyDiscovered(event.rooms);
    case 'settings':
      return stores.settings.getState().apply(event.settings);
    case 'devices':
      return stores.devices.getState().apply(event.devices);
    case 'history':
      return stores.history.getState().apply(event.history);
    case 'nearby':
      return stores.nearby.getState().apply(event.nearby);
    case 'opened':
      return applyOpened(stores, event.opened);
    case 'warning':
      return stores.notice.getState().show({ code: TRANSFER_WARNING, message: event.message });
  }
}

function applyTransfer(stores: FerryStores, view: TransferView): void {
  stores.transfer.getState().apply(view);
  if (view.phase === 'idle') return;
  if (view.phase === 'done') {
    // What was sent or the code that worked is finished with; failures keep both for a retry.
    if (view.direction === 'send') stores.selection.getState().clear();
    else stores.codeDraft.getState().setDraft('');
  }
  const { screen, show } = stores.screen.getState();
  if (screen !== 'settings' && screen !== view.direction) show(view.direction);
}

function applyOpened(stores: FerryStores, opened: BackendResult<SelectedItem[]>): void {
  if (!succeeded(opened, stores.notice) || opened.value.length === 0) return;
  stores.selection.getState().add(opened.value);
  // A receive under way keeps the screen; the items wait on the send screen.
  const { view } = stores.transfer.getState();
  if (view.phase === 'idle' || view.direction === 'send') stores.screen.getState().show('send');
}
