import type { IpcError } from '../../src-shared/ipc/result';

export const ERR_BUSY = 'ERR_BUSY';

/**
 * The desktop app runs one transfer at a time: a send or receive may start only when no transfer
 * is running. Returns the refusal the person sees, or undefined when the start may go ahead.
 */
export function refusalToStart(transferRunning: boolean): IpcError | undefined {
  if (!transferRunning) return undefined;
  return { code: ERR_BUSY, message: 'A transfer is already running; finish or cancel it first.' };
}
