import { encodeMessage } from './encode';
import type { Frame, Framing } from './frame';
import type { Capability, Outcome } from './messages';

/**
 * The frame that names why a side closes, for a peer that agreed `outcome`; none for any other,
 * which sees the spec's plain close (docs/protocol.md, "Named outcomes").
 */
export function namedOutcome(
  agreed: ReadonlySet<Capability>,
  outcome: Outcome,
  framing: Framing,
): Frame | undefined {
  return agreed.has('outcome')
    ? encodeMessage({ type: 'ferry-outcome', outcome }, framing)
    : undefined;
}
