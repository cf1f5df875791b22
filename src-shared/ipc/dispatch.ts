import * as v from 'valibot';
import { requestSchemas, type HandlerMap, type InvokeChannel, type ResponseOf } from './contract';
import { refused } from '../app/app-errors';
import { err, ok, type IpcResult } from './result';

/** A failure a handler means the person to see: its code and sentence cross IPC as given. */
export class HandlerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HandlerError';
  }
}

const isChannel = (name: string): name is InvokeChannel => Object.hasOwn(requestSchemas, name);

/**
 * Validates a request and runs its handler, turning every outcome into a result value. The
 * Electron shell and the e2e test bridge both go through here, so they behave the same.
 */
export async function dispatchInvoke(
  handlers: HandlerMap,
  channel: string,
  request: unknown,
  onUnexpected: (error: unknown) => void,
): Promise<IpcResult<ResponseOf<InvokeChannel>>> {
  if (!isChannel(channel)) return refused('ERR_UNKNOWN_CHANNEL', channel);
  const parsed = v.safeParse(requestSchemas[channel], request);
  if (!parsed.success) return refused('ERR_BAD_REQUEST', { kind: 'malformed', channel });
  const handler = handlers[channel] as (input: unknown) => Promise<ResponseOf<InvokeChannel>>;
  try {
    // The handler gets the schema's copy: only the keys the contract names, nothing inherited.
    return ok(await handler(parsed.output));
  } catch (error) {
    if (error instanceof HandlerError) return err(error.code, error.message);
    onUnexpected(error);
    return refused('ERR_INTERNAL');
  }
}
