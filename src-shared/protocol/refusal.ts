import type { Failure } from './error-codes';

/**
 * Why a side stops on purpose: `failure` for this side, `reason` for the peer's `incompatible`,
 * worded from the recipient's viewpoint (docs/protocol.md, "Aborts with a reason").
 */
export interface Refusal {
  failure: Failure;
  reason: string;
}
