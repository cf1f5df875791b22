import { defaultFailure, type Failure } from '../protocol/error-codes';
import { REMOTE_FINGERPRINT_LINES_MAX } from '../protocol/limits';
import { fingerprintLineCount } from '../verify/sas';

/**
 * Why a remote description must not be applied, or undefined when it may be (docs/protocol.md,
 * "Connection requirement"). With two `a=fingerprint` lines a browser may complete DTLS with
 * either certificate, so whoever can rewrite signaling adds its own beside the real peer's; every
 * surface refuses such a description before its stack sees it, on the first connection and on
 * every lane.
 */
export function refusalOfRemoteDescription(sdp: string): Failure | undefined {
  return fingerprintLineCount(sdp) > REMOTE_FINGERPRINT_LINES_MAX
    ? defaultFailure('ERR_TWO_FINGERPRINTS')
    : undefined;
}
