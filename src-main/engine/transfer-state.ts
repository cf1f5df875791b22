import type { ErrorCode } from '../../src-shared/protocol';
import type {
  DeliveredFileView,
  FileEntryView,
  OfferView,
  ProgressView,
} from '../../src-shared/transfer/transfer-view';

/**
 * Where one transfer stands, as the CLI and the desktop app show it. A sender goes registering →
 * waiting-for-peer → connecting → awaiting-acceptance → transferring → done; a receiver starts
 * at connecting and, when it asks its person, passes awaiting-acceptance with the offer.
 */
export type TransferState =
  | { phase: 'registering'; files: FileEntryView[]; totalBytes: number }
  | { phase: 'waiting-for-peer'; code: string; files: FileEntryView[]; totalBytes: number }
  /** `retry` counts the attempts after a failed first one ("Retrying the connection…"). */
  | { phase: 'connecting'; code: string; retry?: number }
  /** Sender: the first metadata is out and the ack not yet in. Receiver: the person is asked. */
  | { phase: 'awaiting-acceptance'; offer?: OfferView }
  | { phase: 'transferring'; progress: ProgressView }
  | {
      phase: 'done';
      files: DeliveredFileView[];
      totalBytes: number;
      /** The receiver's destination folder. */
      folder?: string;
    }
  | { phase: 'failed'; code: ErrorCode; message: string };

export type FinalState = Extract<TransferState, { phase: 'done' } | { phase: 'failed' }>;

export function isFinal(state: TransferState): state is FinalState {
  return state.phase === 'done' || state.phase === 'failed';
}
