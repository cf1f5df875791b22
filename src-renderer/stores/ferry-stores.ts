import type { FerryBackend } from '../backend/ferry-backend';
import { createCodeDraftStore, type CodeDraftStore } from './code-draft-store';
import { createDevicesStore, type DevicesStore } from './devices-store';
import { createHistoryStore, type HistoryStore } from './history-store';
import { createLanRoomStore, type LanRoomStore } from './lan-room-store';
import { createNearbyStore, type NearbyStore } from './nearby-store';
import { createNoticeStore, type NoticeStore } from './notice-store';
import { createScreenStore, type ScreenStore } from './screen-store';
import { createSelectionStore, type SelectionStore } from './selection-store';
import { createSessionStore, type SessionStore } from './session-store';
import { createSettingsStore, type SettingsStore } from './settings-store';
import { createTransferStore, type TransferStore } from './transfer-store';

/** Every store of one running UI, all bound to the same backend. */
export interface FerryStores {
  backend: FerryBackend;
  session: SessionStore;
  notice: NoticeStore;
  transfer: TransferStore;
  selection: SelectionStore;
  settings: SettingsStore;
  devices: DevicesStore;
  history: HistoryStore;
  lanRoom: LanRoomStore;
  nearby: NearbyStore;
  screen: ScreenStore;
  codeDraft: CodeDraftStore;
}

export function createFerryStores(backend: FerryBackend): FerryStores {
  const notice = createNoticeStore();
  return {
    backend,
    session: createSessionStore(),
    notice,
    transfer: createTransferStore(backend, notice),
    selection: createSelectionStore(backend, notice),
    settings: createSettingsStore(backend, notice),
    devices: createDevicesStore(backend),
    history: createHistoryStore(backend, notice),
    lanRoom: createLanRoomStore(backend, notice),
    nearby: createNearbyStore(),
    screen: createScreenStore(),
    codeDraft: createCodeDraftStore(),
  };
}
