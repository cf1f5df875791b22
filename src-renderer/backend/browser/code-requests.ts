import { CODE_REQUEST_TIMEOUT_MS } from '../../../src-shared/protocol/limits';
import { defaultFailure, type Failure } from '../../../src-shared/protocol/error-codes';
import { CODE_PATH, codePath } from '../../../src-shared/signaling/endpoints';
import { isRoomId } from '../../../src-shared/signaling/room-id';
import { requestJson, type HttpAnswer } from './http-json';

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

const failed = (failure: Failure): Outcome<never> => ({ ok: false, failure });

/** What every code request shares: the server's refusals and a server out of reach. */
function refusal(answer: HttpAnswer, unreachable: Failure): Failure | undefined {
  if (answer.kind === 'cancelled') return defaultFailure('ERR_CANCELLED');
  if (answer.kind !== 'answered') return unreachable;
  if (answer.status === 429) return defaultFailure('ERR_RATE_LIMITED');
  if (answer.status === 503) return defaultFailure('ERR_SERVER_BUSY');
  return undefined;
}

/** The code POST /api/code answered for `roomId`. */
export function registeredCodeFrom(answer: HttpAnswer): Outcome<string> {
  const refused = refusal(answer, defaultFailure('ERR_REGISTER_CODE'));
  if (refused) return failed(refused);
  if (answer.kind !== 'answered') return failed(defaultFailure('ERR_REGISTER_CODE'));
  const code = (answer.body as { code?: unknown } | null)?.code;
  if (answer.status !== 200 || typeof code !== 'string' || code === '') {
    return failed(defaultFailure('ERR_REGISTER_CODE'));
  }
  return { ok: true, value: code };
}

/** The room GET /api/code/:code answered. */
export function resolvedRoomFrom(answer: HttpAnswer): Outcome<string> {
  const refused = refusal(answer, defaultFailure('ERR_SIGNALING_UNREACHABLE'));
  if (refused) return failed(refused);
  if (answer.kind !== 'answered') return failed(defaultFailure('ERR_SIGNALING_UNREACHABLE'));
  if (answer.status === 404) return failed(defaultFailure('ERR_CODE_NOT_FOUND'));
  const roomId = (answer.body as { roomId?: unknown } | null)?.roomId;
  if (answer.status !== 200 || !isRoomId(roomId)) {
    return failed(defaultFailure('ERR_SIGNALING_UNREACHABLE'));
  }
  return { ok: true, value: roomId };
}

/** Registers a short code for the sender's room, exactly as the native senders do. */
export async function registerCode(
  signalingAddress: string,
  roomId: string,
  signal: AbortSignal,
): Promise<Outcome<string>> {
  const answer = await requestJson(`${signalingAddress}${CODE_PATH}`, {
    method: 'POST',
    body: { roomId },
    timeoutMs: CODE_REQUEST_TIMEOUT_MS,
    signal,
  });
  return registeredCodeFrom(answer);
}

/** Finds the room behind a normalized (lowercase) code. */
export async function resolveCode(
  signalingAddress: string,
  code: string,
  signal: AbortSignal,
): Promise<Outcome<string>> {
  const answer = await requestJson(`${signalingAddress}${codePath(code)}`, {
    timeoutMs: CODE_REQUEST_TIMEOUT_MS,
    signal,
  });
  return resolvedRoomFrom(answer);
}
