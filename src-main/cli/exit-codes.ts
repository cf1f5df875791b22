import type { ErrorCode } from '../../src-shared/protocol';

/** The command line's exit statuses, as `--help` documents them. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  declined: 3,
  incompatible: 4,
  unreachable: 5,
  notOnline: 6,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const BY_ERROR: Partial<Record<ErrorCode, ExitCode>> = {
  ERR_DECLINED: EXIT.declined,
  ERR_PEER_DECLINED: EXIT.declined,
  ERR_NOT_CONFIRMED: EXIT.declined,
  ERR_CANCELLED: EXIT.interrupted,
  ERR_INCOMPATIBLE_VERSION: EXIT.incompatible,
  ERR_SIGNALING_UNREACHABLE: EXIT.unreachable,
  ERR_REGISTER_CODE: EXIT.unreachable,
  ERR_CODE_NOT_FOUND: EXIT.unreachable,
  ERR_CODE_EXPIRED: EXIT.unreachable,
  ERR_CODE_USED: EXIT.unreachable,
  ERR_CODE_CANCELLED: EXIT.unreachable,
  ERR_NO_ONE_WAITING: EXIT.unreachable,
  ERR_NOT_ONLINE: EXIT.notOnline,
  ERR_RATE_LIMITED: EXIT.unreachable,
  ERR_SERVER_BUSY: EXIT.unreachable,
};

export function exitCodeFor(code: ErrorCode): ExitCode {
  return BY_ERROR[code] ?? EXIT.failed;
}
