import type {
  TransferControl as SharedControl,
  TransferHandle,
} from '../../src-shared/app/transfer-handle';
import type { Route } from './peer-link';

/**
 * One native send or receive: the shared transfer handle (src-shared/app/transfer-handle.ts),
 * whose `connected` event says whether the channel goes directly or through a relay.
 */
export type Transfer = TransferHandle<Route>;

/** What a running native flow may do to the Transfer it serves. */
export type TransferControl = SharedControl<Route>;
