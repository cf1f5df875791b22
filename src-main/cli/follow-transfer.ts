import { asSentence } from '../../src-shared/format/as-sentence';
import type { Transfer, TransferState } from '../engine';
import type { CliIo } from './cli-io';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes';
import { ProgressDisplay } from './progress-view';

const NAMED_OUTCOMES: ReadonlySet<string> = new Set(['ERR_PEER_DECLINED', 'ERR_PEER_CANCELLED']);

/**
 * Prints a transfer's states as they come and turns its end into an exit status. `onState`
 * adds what only one direction says (the sender's code, the receiver's summary).
 */
export async function followTransfer(
  transfer: Transfer,
  io: CliIo,
  verb: 'Sending' | 'Receiving',
  /** May return a promise, as remembering the other device does: it is awaited before exit. */
  onState: (state: TransferState, display: ProgressDisplay) => void | Promise<void>,
): Promise<ExitCode> {
  const display = new ProgressDisplay(io.out, verb);
  const stopInterrupt = io.onInterrupt(() => transfer.cancel());
  transfer.on('warning', (message) => display.line(`Warning: ${asSentence(message)}`));
  try {
    for await (const state of transfer) {
      if (state.phase === 'transferring') display.show(state.progress);
      else await onState(state, display);
      if (state.phase === 'failed') {
        display.line('');
        // The other person's choice is an outcome, not an error (docs/protocol.md, "Named outcomes").
        const chosen = NAMED_OUTCOMES.has(state.code);
        io.error(chosen ? asSentence(state.message) : `Error: ${asSentence(state.message)}`);
      }
    }
    const final = await transfer.finished;
    return final.phase === 'done' ? EXIT.ok : exitCodeFor(final.code);
  } finally {
    stopInterrupt();
  }
}
