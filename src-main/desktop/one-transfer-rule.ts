import { appError } from '../../src-shared/app/app-errors';
import type { IpcError } from '../../src-shared/ipc/result';

/**
 * The desktop app runs one transfer at a time: a send or receive may start only when no transfer
 * is running. Returns the refusal the person sees, or undefined when the start may go ahead.
 */
export function refusalToStart(transferRunning: boolean): IpcError | undefined {
  return transferRunning ? appError('ERR_BUSY') : undefined;
}
