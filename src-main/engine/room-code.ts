import { codePath, CODE_PATH } from '../../src-shared/signaling/endpoints';
import { EngineError } from './engine-error';
import { requestJson, type HttpOutcome } from './http-json';

const TOO_MANY_REQUESTS = 429;
const SERVICE_UNAVAILABLE = 503;
const NOT_FOUND = 404;

/** POST /api/code: the short code under which the receiver finds `roomId`. */
export async function registerRoomCode(
  serverUrl: string,
  roomId: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string> {
  const outcome = await requestJson(new URL(CODE_PATH, serverUrl).toString(), {
    method: 'POST',
    body: { roomId },
    timeoutMs,
    signal,
  });
  if (outcome.kind === 'ok') {
    const code = field(outcome.body, 'code');
    if (code !== undefined) return code;
  }
  throw failure(outcome, 'ERR_REGISTER_CODE', serverUrl);
}

/** GET /api/code/:code: the room a code names. `code` must already be normalized. */
export async function resolveRoomCode(
  serverUrl: string,
  code: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string> {
  const outcome = await requestJson(new URL(codePath(code), serverUrl).toString(), {
    method: 'GET',
    timeoutMs,
    signal,
  });
  if (outcome.kind === 'ok') {
    const roomId = field(outcome.body, 'roomId');
    if (roomId !== undefined) return roomId;
  }
  if (outcome.kind === 'status' && outcome.status === NOT_FOUND) {
    throw new EngineError('ERR_CODE_NOT_FOUND');
  }
  throw failure(outcome, 'ERR_SIGNALING_UNREACHABLE', serverUrl);
}

function failure(
  outcome: HttpOutcome,
  code: 'ERR_REGISTER_CODE' | 'ERR_SIGNALING_UNREACHABLE',
  serverUrl: string,
): EngineError {
  switch (outcome.kind) {
    case 'unreachable':
      return EngineError.withDetail(code, `${serverUrl}: ${outcome.detail}`);
    case 'status':
      if (outcome.status === TOO_MANY_REQUESTS) return new EngineError('ERR_RATE_LIMITED');
      if (outcome.status === SERVICE_UNAVAILABLE) return new EngineError('ERR_SERVER_BUSY');
      return EngineError.withDetail(
        code,
        `${serverUrl} answered ${outcome.status}${outcome.error ? `: ${outcome.error}` : ''}`,
      );
    case 'ok':
      return EngineError.withDetail(code, `${serverUrl} sent an unexpected answer`);
  }
}

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
