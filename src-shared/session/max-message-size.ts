import { SDP_MAX_MESSAGE_SIZE_BYTES } from '../protocol/limits';
import type { NegotiationSignal } from './negotiation-signal';

const ATTRIBUTE = /^a=max-message-size:(\d+)$/;

/**
 * The answer SDP with every data-channel section advertising at least `bytes` as its maximum
 * message size, the rule of both Ferry peers' answers (docs/protocol.md,
 * "Connection requirement"). A missing attribute would mean RFC 8841's 65536 and a smaller one
 * would cut every peer's chunks, while each Ferry sender caps its chunks at 256 KiB on its own.
 * A value of 0 already means "no limit" and is kept.
 */
export function withMaxMessageSize(sdp: string, bytes = SDP_MAX_MESSAGE_SIZE_BYTES): string {
  const newline = sdp.includes('\r\n') ? '\r\n' : '\n';
  const trailing = sdp.endsWith(newline);
  const lines = (trailing ? sdp.slice(0, -newline.length) : sdp).split(newline);
  const out: string[] = [];
  let inApplication = false;
  let sawAttribute = false;

  const closeSection = (): void => {
    if (inApplication && !sawAttribute) out.push(`a=max-message-size:${bytes}`);
  };

  for (const line of lines) {
    if (line.startsWith('m=')) {
      closeSection();
      inApplication = line.startsWith('m=application');
      sawAttribute = false;
      out.push(line);
      continue;
    }
    const match = inApplication ? ATTRIBUTE.exec(line) : null;
    if (match) {
      sawAttribute = true;
      const current = Number(match[1]);
      out.push(current !== 0 && current < bytes ? `a=max-message-size:${bytes}` : line);
      continue;
    }
    out.push(line);
  }
  closeSection();
  return out.join(newline) + (trailing ? newline : '');
}

/**
 * `signal` as this side sends it, on the first connection or a lane: an answer carries the
 * max-message-size browsers need for chunks above 64 KiB (withMaxMessageSize).
 */
export function outgoingSignal(signal: NegotiationSignal): NegotiationSignal {
  return signal.type === 'answer' ? { ...signal, sdp: withMaxMessageSize(signal.sdp) } : signal;
}
