/** Errors cross the IPC boundary as values, never as thrown exceptions. */
export interface IpcError {
  code: string;
  message: string;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export const ok = <T>(value: T): IpcResult<T> => ({ ok: true, value });
export const err = (code: string, message: string): IpcResult<never> => ({
  ok: false,
  error: { code, message },
});
