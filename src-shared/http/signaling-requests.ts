import * as v from 'valibot';
import {
  BYTE_COUNT_REPORT_TIMEOUT_MS,
  CODE_RELEASE_TIMEOUT_MS,
  CODE_REQUEST_TIMEOUT_MS,
  RELAY_CREDENTIALS_TIMEOUT_MS,
} from '../protocol/limits';
import type { ErrorCode } from '../protocol/error-codes';
import { SessionFailure } from '../session/session-failure';
import {
  CODE_OUTCOME_HEADER,
  CODE_PATH,
  codePath,
  codeReleasePath,
  STATS_REPORT_PATH,
  TURN_CREDENTIALS_PATH,
} from '../signaling/endpoints';
import { CODE_OUTCOMES, type CodeOutcome, type IceServerEntry } from '../signaling/http-api';
import { PUBLIC_STUN_URLS } from '../signaling/public-stun-urls';
import { isRoomId } from '../signaling/room-id';
import { readIceServerList } from './ice-server-list';
import { requestJson, type HttpAnswer, type HttpPort } from './request-json';

const OK = 200;
const NOT_FOUND = 404;
const TOO_MANY_REQUESTS = 429;
const SERVICE_UNAVAILABLE = 503;

const REGISTERED = v.object({ code: v.pipe(v.string(), v.nonEmpty()) });
const RESOLVED = v.object({ roomId: v.custom<string>(isRoomId, 'not a room id') });

/** What a server without relay hands out: public STUN, for when the server's list is unusable. */
export const STUN_ONLY: readonly IceServerEntry[] = PUBLIC_STUN_URLS.map((urls) => ({ urls }));

export interface SignalingRequestTimeouts {
  codeRequest: number;
  relayCredentials: number;
  report: number;
  release: number;
}

export const SIGNALING_REQUEST_TIMEOUTS: SignalingRequestTimeouts = {
  codeRequest: CODE_REQUEST_TIMEOUT_MS,
  relayCredentials: RELAY_CREDENTIALS_TIMEOUT_MS,
  report: BYTE_COUNT_REPORT_TIMEOUT_MS,
  release: CODE_RELEASE_TIMEOUT_MS,
};

/** What a receiver is told of a code whose sender released it (docs/protocol.md, "Dead codes"). */
const DEAD_CODE: Record<CodeOutcome, ErrorCode> = {
  used: 'ERR_CODE_USED',
  cancelled: 'ERR_CODE_CANCELLED',
};

export interface IceServerChoice {
  servers: readonly IceServerEntry[];
  /** What the person should know about the list, when anything. */
  warning?: string;
}

/**
 * The signaling server's HTTP endpoints as every peer uses them (docs/protocol.md, "HTTP
 * endpoints"), with one vocabulary of outcomes: a failure is a SessionFailure with its code.
 */
export class SignalingRequests {
  readonly #base: string;
  readonly #port: HttpPort;
  readonly #timeouts: SignalingRequestTimeouts;

  constructor(
    serverUrl: string,
    port: HttpPort,
    timeouts: SignalingRequestTimeouts = SIGNALING_REQUEST_TIMEOUTS,
  ) {
    this.#base = serverUrl.replace(/\/+$/, '');
    this.#port = port;
    this.#timeouts = timeouts;
  }

  /** POST /api/code: the short code under which the receiver finds `roomId`. */
  async registerCode(roomId: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.#request(CODE_PATH, { method: 'POST', body: { roomId }, signal });
    const read = this.#read(answer, REGISTERED, 'ERR_REGISTER_CODE');
    return read.code;
  }

  /**
   * GET /api/code/:code: the room a normalized code names. A code its sender released fails
   * here, named, without a join that would meet no one (docs/protocol.md, "Dead codes").
   */
  async resolveCode(code: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.#request(codePath(code), {
      signal,
      readHeaders: [CODE_OUTCOME_HEADER],
    });
    if (answer.kind === 'answered' && answer.status === NOT_FOUND) {
      throw new SessionFailure('ERR_CODE_NOT_FOUND');
    }
    const { roomId } = this.#read(answer, RESOLVED, 'ERR_SIGNALING_UNREACHABLE');
    const said = answer.kind === 'answered' ? answer.headers?.[CODE_OUTCOME_HEADER] : undefined;
    // An outcome this build does not know reads as a live code: the room then tells.
    const outcome = CODE_OUTCOMES.find((known) => known === said);
    if (outcome !== undefined) throw new SessionFailure(DEAD_CODE[outcome]);
    return roomId;
  }

  /**
   * POST /api/code/:code/release, Ferry's extension: how this sender's code ended, so that a
   * receiver who types it later is told so. Best effort, like the byte count: abandoned after
   * its deadline, and whatever happens here never touches the transfer's outcome.
   */
  async releaseCode(code: string, roomId: string, outcome: CodeOutcome): Promise<void> {
    await this.#request(codeReleasePath(code), {
      method: 'POST',
      body: { roomId, outcome },
      timeoutMs: this.#timeouts.release,
    });
  }

  /**
   * GET /api/turn-credentials, once before connecting. When the list cannot be had (429, a
   * timeout, no list at all) the transfer goes on with STUN only and a warning: a direct route may
   * well work.
   */
  async iceServers(signal?: AbortSignal): Promise<IceServerChoice> {
    const answer = await this.#request(TURN_CREDENTIALS_PATH, {
      signal,
      timeoutMs: this.#timeouts.relayCredentials,
    });
    const stunOnly = (why: string): IceServerChoice => ({
      servers: STUN_ONLY,
      warning: `could not fetch relay credentials (${why}); continuing with STUN only, so a connection through a relay is not possible`,
    });
    switch (answer.kind) {
      case 'cancelled':
        throw new SessionFailure('ERR_CANCELLED');
      case 'timed-out':
        return stunOnly(`no answer within ${this.#timeouts.relayCredentials / 1000} s`);
      case 'unreachable':
        return stunOnly(answer.detail);
      case 'answered':
        break;
    }
    if (answer.status === TOO_MANY_REQUESTS) return stunOnly('too many requests');
    const list = answer.status === OK ? readIceServerList(answer.body) : undefined;
    if (list === undefined) return stunOnly(`the server answered ${answer.status} with no list`);
    if (list.skipped.length === 0) return { servers: list.servers };
    return {
      servers: list.servers,
      warning: `some relay entries were unusable and left out (${list.skipped.join('; ')})`,
    };
  }

  /**
   * POST /api/stats/report after a completed batch: best effort by design, abandoned after its
   * deadline, and whatever happens here never touches the received files or the outcome.
   */
  async reportBytes(bytes: number): Promise<void> {
    // The server accepts only a positive count; an all-empty batch has nothing to add.
    if (!Number.isSafeInteger(bytes) || bytes <= 0) return;
    await this.#request(STATS_REPORT_PATH, {
      method: 'POST',
      body: { bytes },
      timeoutMs: this.#timeouts.report,
    });
  }

  #request(
    path: string,
    request: {
      method?: 'GET' | 'POST';
      body?: unknown;
      signal?: AbortSignal;
      timeoutMs?: number;
      readHeaders?: readonly string[];
    },
  ): Promise<HttpAnswer> {
    const { signal, timeoutMs = this.#timeouts.codeRequest, ...rest } = request;
    return requestJson(this.#port, `${this.#base}${path}`, {
      ...rest,
      timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** The answer read with `schema`, or the failure `code` names, with what went wrong. */
  #read<T>(
    answer: HttpAnswer,
    schema: v.GenericSchema<unknown, T>,
    code: Extract<ErrorCode, 'ERR_REGISTER_CODE' | 'ERR_SIGNALING_UNREACHABLE'>,
  ): T {
    switch (answer.kind) {
      case 'cancelled':
        throw new SessionFailure('ERR_CANCELLED');
      case 'timed-out':
        throw SessionFailure.withDetail(
          code,
          `${this.#base}: no answer within ${this.#timeouts.codeRequest / 1000} s`,
        );
      case 'unreachable':
        throw SessionFailure.withDetail(code, `${this.#base}: ${answer.detail}`);
      case 'answered':
        break;
    }
    if (answer.status === TOO_MANY_REQUESTS) throw new SessionFailure('ERR_RATE_LIMITED');
    if (answer.status === SERVICE_UNAVAILABLE) throw new SessionFailure('ERR_SERVER_BUSY');
    const read = answer.status === OK ? v.safeParse(schema, answer.body) : undefined;
    if (read?.success) return read.output;
    const error = v.safeParse(v.object({ error: v.string() }), answer.body);
    const said = error.success ? `: ${error.output.error}` : '';
    throw SessionFailure.withDetail(code, `${this.#base} answered ${answer.status}${said}`);
  }
}
