import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import {
  DROPPED_PATH_WIRE,
  EVENT_CHANNELS,
  INVOKE_CHANNELS,
  eventWireName,
  invokeWireName,
  type EventChannel,
  type EventContract,
  type FerryBridge,
} from '../../src-shared/ipc/contract';

// The bridge is built from the contract's channel lists, so it can expose nothing else.
const invoke = Object.fromEntries(
  INVOKE_CHANNELS.map((channel) => [
    channel,
    (request: unknown) => ipcRenderer.invoke(invokeWireName(channel), request),
  ]),
) as FerryBridge['invoke'];

const bridge: FerryBridge = {
  invoke,
  on<K extends EventChannel>(channel: K, listener: (payload: EventContract[K]) => void) {
    if (!EVENT_CHANNELS.includes(channel)) return () => undefined;
    const wire = eventWireName(channel);
    const forward = (_event: IpcRendererEvent, payload: EventContract[K]): void =>
      listener(payload);
    ipcRenderer.on(wire, forward);
    return () => void ipcRenderer.off(wire, forward);
  },
  pathForFile: (file) => {
    const path = webUtils.getPathForFile(file as File);
    // Main trusts this path as chosen; the page itself has no way to name one (docs/architecture.md).
    if (path !== '') ipcRenderer.send(DROPPED_PATH_WIRE, path);
    return path;
  },
};

contextBridge.exposeInMainWorld('ferry', bridge);
