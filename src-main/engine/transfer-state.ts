import type { TransferView } from '../../src-shared/transfer/transfer-view';

/**
 * Where one transfer stands: the view the session core publishes, the same on every surface
 * (src-shared/transfer/transfer-view.ts). A sender goes registering → waiting-for-peer →
 * connecting → waiting-for-acceptance → transferring → done; a receiver starts at connecting and,
 * when it asks its person, passes awaiting-acceptance with the offer.
 */
export type TransferState = Exclude<TransferView, { phase: 'idle' }>;

export type FinalState = Extract<TransferState, { phase: 'done' } | { phase: 'failed' }>;

export function isFinal(state: TransferState): state is FinalState {
  return state.phase === 'done' || state.phase === 'failed';
}
