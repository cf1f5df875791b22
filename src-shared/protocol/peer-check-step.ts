import { defaultFailure, ERROR_MESSAGES } from './error-codes';
import type { Frame } from './frame';
import { LINK_REFUSED_REASON } from './peer-incompatible';
import type { Refusal } from './refusal';

/** What the peer check asks of its machine's driver (docs/protocol-machines.md). */
export type PeerCheckAction =
  | { type: 'send'; frame: Frame; early?: true }
  | { type: 'derive-words'; senderNonce: string; receiverNonce: string }
  | { type: 'prove-link'; senderNonce: string; receiverNonce: string };

/**
 * One step of the peer check (docs/protocol.md, "Verification words", "Secret link"): carry out
 * `actions`, then refuse the peer, telling it `reason`, or go on; `settled` says the check just
 * became known, so the machine goes on with what waited for it.
 */
export type PeerCheckStep = { actions: PeerCheckAction[] } & (
  ({ kind: 'refuse' } & Refusal) | { kind: 'go'; settled: boolean }
);

/** Which side is speaking, for the reasons the other side reads. */
export type CheckSide = 'sending' | 'receiving';

export const NOTHING: PeerCheckStep = { kind: 'go', actions: [], settled: false };

export function go(actions: PeerCheckAction[], settled = false): PeerCheckStep {
  return { kind: 'go', actions, settled };
}

/** `step`, with `first` carried out before it. */
export function after(first: PeerCheckAction[], step: PeerCheckStep): PeerCheckStep {
  return { ...step, actions: [...first, ...step.actions] };
}

/** The secret link does not hold: stop before anyone is asked or any file data leaves. */
export function linkRefused(): PeerCheckStep {
  // The message stands alone: what failed is the same to the person whatever the detail.
  return {
    kind: 'refuse',
    actions: [],
    failure: defaultFailure('ERR_LINK_MISMATCH'),
    reason: LINK_REFUSED_REASON,
  };
}

/** The other side's `sas` input does not hold: stop, and say why. */
export function sasRefused(side: CheckSide, problem: string): PeerCheckStep {
  return {
    kind: 'refuse',
    actions: [],
    failure: {
      code: 'ERR_SAS_MISMATCH',
      message: `${ERROR_MESSAGES.ERR_SAS_MISMATCH} (${problem})`,
    },
    reason: `the ${side} device refused the transfer: ${problem}`,
  };
}

/** This runtime could not derive the words or the link's proofs: nothing can be checked. */
export function checkUnworkable(
  side: CheckSide,
  what: 'words' | 'link',
  detail: string,
): PeerCheckStep {
  const task = what === 'words' ? 'the verification words' : 'the proof of the secret link';
  return {
    kind: 'refuse',
    actions: [],
    failure: { code: 'ERR_UNEXPECTED', message: `${ERROR_MESSAGES.ERR_UNEXPECTED} (${detail})` },
    reason: `the ${side} device could not work out ${task}`,
  };
}
