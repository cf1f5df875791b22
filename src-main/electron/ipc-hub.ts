import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { INVOKE_CHANNELS, invokeWireName, type HandlerMap } from '../../src-shared/ipc/contract';
import { dispatchInvoke, ERR_BAD_REQUEST } from '../../src-shared/ipc/dispatch';
import { err } from '../../src-shared/ipc/result';

/**
 * Registers every channel of the contract. A message from any frame other than the app's own
 * renderer is refused before its payload is even looked at.
 */
export function registerIpcHandlers(
  handlers: HandlerMap,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
  log: (error: unknown) => void,
): () => void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(invokeWireName(channel), (event, request: unknown) => {
      if (!isTrustedSender(event)) return err(ERR_BAD_REQUEST, 'Request from an untrusted frame.');
      return dispatchInvoke(handlers, channel, request, log);
    });
  }
  return () => INVOKE_CHANNELS.forEach((channel) => ipcMain.removeHandler(invokeWireName(channel)));
}
