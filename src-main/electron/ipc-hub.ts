import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import * as v from 'valibot';
import {
  DROPPED_PATH_WIRE,
  INVOKE_CHANNELS,
  invokeWireName,
  type HandlerMap,
} from '../../src-shared/ipc/contract';
import { refused } from '../../src-shared/app/app-errors';
import { dispatchInvoke } from '../../src-shared/ipc/dispatch';
import { PathSchema } from '../../src-shared/ipc/value-schemas';

/**
 * Registers every channel of the contract, and the preload's own channel for dropped paths. A
 * message from anything but the app's page in its window's main frame is refused before its
 * payload is even looked at.
 */
export function registerIpcHandlers(
  handlers: HandlerMap,
  onDroppedPath: (path: string) => void,
  isTrustedSender: (event: IpcMainInvokeEvent | IpcMainEvent) => boolean,
  log: (error: unknown) => void,
): () => void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(invokeWireName(channel), (event, request: unknown) => {
      if (!isTrustedSender(event)) return refused('ERR_BAD_REQUEST', { kind: 'untrusted-frame' });
      return dispatchInvoke(handlers, channel, request, log);
    });
  }
  const dropped = (event: IpcMainEvent, path: unknown): void => {
    if (isTrustedSender(event) && v.is(PathSchema, path)) onDroppedPath(path);
  };
  ipcMain.on(DROPPED_PATH_WIRE, dropped);
  return () => {
    INVOKE_CHANNELS.forEach((channel) => ipcMain.removeHandler(invokeWireName(channel)));
    ipcMain.off(DROPPED_PATH_WIRE, dropped);
  };
}
