import { randomBytes } from 'node:crypto';
import { decodeSignal, encodeSignal } from '../../../src-shared/session/negotiation-signal';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';

/** A certificate fingerprint nobody holds, in SDP form. */
function strangerLine(): string {
  const hex = [...randomBytes(32)].map((byte) => byte.toString(16).padStart(2, '0'));
  return `a=fingerprint:sha-256 ${hex.join(':').toUpperCase()}`;
}

/**
 * What a relay that can rewrite signaling adds to a description of `type`: a second
 * `a=fingerprint` line after the genuine one, at the same level, which Firefox would accept DTLS
 * against (docs/protocol.md, "Connection requirement"). Any other payload passes as it came.
 */
export function addSecondFingerprint(
  type: 'offer' | 'answer',
): (payload: SignalPayload) => SignalPayload {
  return (payload) => {
    const signal = decodeSignal(payload);
    if (signal?.type !== type) return payload;
    const lines = signal.sdp.split('\r\n');
    const at = lines.findIndex((line) => line.startsWith('a=fingerprint:'));
    if (at < 0) throw new Error(`the ${type} carried no a=fingerprint line to add a second to`);
    lines.splice(at + 1, 0, strangerLine());
    return encodeSignal({ ...signal, sdp: lines.join('\r\n') });
  };
}
