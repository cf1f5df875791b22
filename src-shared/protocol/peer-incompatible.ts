import { displayReason } from './display-reason';
import { ERROR_MESSAGES, type Failure } from './error-codes';
import type { IncompatibleMessage, VersionAdvert } from './messages';
import { negotiateVersion } from './version-negotiation';
import { versionRemedy, type RemedySurface } from './version-remedy';

/**
 * What an incoming `incompatible` means here. When the ranges miss, the remedy is rebuilt for this
 * surface from the peer's pv/pvMin and the wire reason is not trusted; when they overlap, the peer
 * aborted on purpose and its reason is shown as given, capped.
 */
export function explainIncompatible(
  message: IncompatibleMessage,
  local: VersionAdvert,
  surface: RemedySurface,
): Failure {
  if (!negotiateVersion(local, message).compatible) {
    return { code: 'ERR_INCOMPATIBLE_VERSION', message: versionRemedy(local, message, surface) };
  }
  const shown = displayReason(message.reason);
  return {
    code: 'ERR_PEER_ABORTED',
    message: shown === '' ? ERROR_MESSAGES.ERR_PEER_ABORTED : shown,
  };
}
