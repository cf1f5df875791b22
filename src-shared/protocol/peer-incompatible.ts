import { displayReason } from './display-reason';
import { ERROR_MESSAGES, type Failure } from './error-codes';
import type { IncompatibleMessage, VersionAdvert } from './messages';
import { negotiateVersion } from './version-negotiation';
import { versionRemedy, type RemedySurface } from './version-remedy';

/**
 * The reason either side gives when the secret link's proof does not check out, or is missing;
 * a side that agreed `link` reads it back as ERR_LINK_MISMATCH (docs/protocol.md, "Secret link").
 */
export const LINK_REFUSED_REASON =
  'the secret link did not check out: someone may be intercepting this connection';

/** Why a receiver holding a link's key stops when the sender did not agree `link`. */
export const LINK_UNPROVEN_PROBLEM = 'the other device did not prove the link’s secret';

/** The same, told to the sender, which may be a spec-only peer that never heard of links. */
export const LINK_UNPROVEN_REASON =
  'the receiving device holds the secret key of a link, and this device did not prove it: someone may be intercepting this connection';

/**
 * What an incoming `incompatible` means here. When the ranges miss, the remedy is rebuilt for this
 * surface from the peer's pv/pvMin and the wire reason is not trusted; when they overlap, the peer
 * aborted on purpose and its reason is shown as given, capped.
 */
export function explainIncompatible(
  message: IncompatibleMessage,
  local: VersionAdvert,
  surface: RemedySurface,
  linkAgreed = false,
): Failure {
  if (!negotiateVersion(local, message).compatible) {
    return { code: 'ERR_INCOMPATIBLE_VERSION', message: versionRemedy(local, message, surface) };
  }
  const shown = displayReason(message.reason);
  if (linkAgreed && shown === LINK_REFUSED_REASON) {
    return { code: 'ERR_LINK_MISMATCH', message: ERROR_MESSAGES.ERR_LINK_MISMATCH };
  }
  return {
    code: 'ERR_PEER_ABORTED',
    message: shown === '' ? ERROR_MESSAGES.ERR_PEER_ABORTED : shown,
  };
}
