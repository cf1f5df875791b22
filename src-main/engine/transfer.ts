import { EventEmitter } from 'node:events';
import type { ErrorCode } from '../../src-shared/protocol';
import { toFailure } from '../../src-shared/session/session-failure';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import type { Route } from './peer-link';
import { isFinal, type FinalState, type TransferState } from './transfer-state';

export interface TransferEvents {
  state: [state: TransferState];
  /** Something the person should know that does not stop the transfer. */
  warning: [message: string];
  /** The data channel is open; `route` says how it goes (directly or through a relay). */
  connected: [route: Route];
}

/** What a running flow may do to the Transfer it serves. */
export interface TransferControl {
  /** Publishes the flow's view; `idle` is the screens' own state and never a transfer's. */
  update(view: TransferView): void;
  warn(message: string): void;
  connected(route: Route): void;
  /** Aborted when the person cancels. */
  readonly cancelled: AbortSignal;
}

/**
 * One send or receive as its owner sees it: a stream of states (events, or `for await`), a
 * `cancel()`, and `finished`, which settles once everything is closed and the process could end.
 * The last state is always `done` or `failed`; `finished` never rejects.
 */
export class Transfer extends EventEmitter<TransferEvents> {
  readonly finished: Promise<FinalState>;
  readonly #cancel = new AbortController();
  #state: TransferState;
  readonly #direction: TransferState['direction'];

  constructor(
    initial: TransferState,
    run: (control: TransferControl) => Promise<void>,
    fallbackCode: ErrorCode,
  ) {
    super();
    this.#state = initial;
    this.#direction = initial.direction;
    const control: TransferControl = {
      update: (state) => this.#update(state),
      warn: (message) => this.emit('warning', message),
      connected: (route) => this.emit('connected', route),
      cancelled: this.#cancel.signal,
    };
    this.finished = this.#run(run, control, fallbackCode);
  }

  async #run(
    run: (control: TransferControl) => Promise<void>,
    control: TransferControl,
    fallbackCode: ErrorCode,
  ): Promise<FinalState> {
    // Starts after the caller's own synchronous code, so listeners it adds see every state.
    await Promise.resolve();
    try {
      await run(control);
    } catch (error) {
      this.#update({
        phase: 'failed',
        direction: this.#direction,
        ...toFailure(error, fallbackCode),
      });
    }
    const state = this.#state;
    if (isFinal(state)) return state;
    const ended: FinalState = {
      phase: 'failed',
      direction: this.#direction,
      ...toFailure(new Error('the transfer ended without an outcome'), fallbackCode),
    };
    this.#update(ended);
    return ended;
  }

  get state(): TransferState {
    return this.#state;
  }

  /** Stops the transfer; the other side sees the channel close at once. */
  cancel(): void {
    this.#cancel.abort();
  }

  /** Every state from the current one on, ending after the final one. */
  async *[Symbol.asyncIterator](): AsyncGenerator<TransferState, void, undefined> {
    const queue: TransferState[] = [this.#state];
    let wake: (() => void) | undefined;
    const listener = (state: TransferState) => {
      queue.push(state);
      wake?.();
    };
    this.on('state', listener);
    try {
      for (;;) {
        const next = queue.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        yield next;
        if (isFinal(next)) return;
      }
    } finally {
      this.off('state', listener);
    }
  }

  #update(state: TransferView): void {
    // The first final state stands: teardown after a failure must not turn it into another one.
    if (state.phase === 'idle' || isFinal(this.#state)) return;
    this.#state = state;
    this.emit('state', state);
  }
}
