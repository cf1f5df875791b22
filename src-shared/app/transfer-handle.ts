import type { ErrorCode, Failure } from '../protocol/error-codes';
import { toFailure } from '../session/session-failure';
import type { TransferView } from '../transfer/transfer-view';

/**
 * Where one transfer stands: the view the session core publishes, the same on every surface
 * (src-shared/transfer/transfer-view.ts). `idle` is the screens' own state, never a transfer's.
 */
export type TransferState = Exclude<TransferView, { phase: 'idle' }>;

export type FinalState = Extract<TransferState, { phase: 'done' } | { phase: 'failed' }>;

export function isFinal(state: TransferView): state is FinalState {
  return state.phase === 'done' || state.phase === 'failed';
}

/**
 * What a running flow may do to the handle it serves. `Route` is what a surface reports once its
 * data channel is open (the native engine: direct or relayed); a surface that reports nothing
 * leaves it `never`.
 */
export interface TransferControl<Route = never> {
  /** Publishes the flow's view; `idle` is ignored. */
  update(view: TransferView): void;
  warn(message: string): void;
  connected(route: Route): void;
  /** Aborted when the owner cancels. */
  readonly cancelled: AbortSignal;
}

export interface TransferEvents<Route = never> {
  state: [state: TransferState];
  /** Something the person should know that does not stop the transfer. */
  warning: [message: string];
  /** The data channel is open; `route` says how it goes. */
  connected: [route: Route];
}

type Listener<Args extends unknown[]> = (...args: Args) => void;

/** What a flow that ends without publishing an outcome is reported as. */
const NO_OUTCOME = 'the transfer ended without an outcome';

/**
 * One send or receive as its owner sees it, on every surface (docs/architecture.md, "The
 * session core"): a stream of states (events, or `for await`), `cancel()`, and `finished`,
 * which settles once the flow has returned, everything closed. Its rules:
 *
 * - the flow starts after the caller's synchronous code, so listeners it adds see every state;
 * - the first final state (`done` or `failed`) stands: teardown after it cannot turn it into
 *   another, and nothing is published after it;
 * - `finished` never rejects: a thrown error becomes `failed` with its code (unknown errors get
 *   `fallbackCode`), and a flow that returns without an outcome fails with `fallbackCode`;
 * - `cancel()` before the outcome ends the transfer as the flow reports it (cancelled); after
 *   the outcome it only hurries the teardown (a receiver that is done closes its channel at
 *   once); once `finished` has settled it does nothing.
 */
export class TransferHandle<Route = never> {
  readonly finished: Promise<FinalState>;
  readonly #cancel = new AbortController();
  readonly #listeners: {
    [E in keyof TransferEvents<Route>]: Set<Listener<TransferEvents<Route>[E]>>;
  } = { state: new Set(), warning: new Set(), connected: new Set() };
  #state: TransferState;
  #settled = false;

  constructor(
    initial: TransferState,
    run: (control: TransferControl<Route>) => Promise<void>,
    fallbackCode: ErrorCode,
  ) {
    this.#state = initial;
    const control: TransferControl<Route> = {
      update: (view) => this.#update(view),
      warn: (message) => this.#emit('warning', message),
      connected: (route) => this.#emit('connected', route),
      cancelled: this.#cancel.signal,
    };
    this.finished = this.#run(run, control, fallbackCode);
  }

  get state(): TransferState {
    return this.#state;
  }

  /** Stops the transfer; the other side sees the channel close at once. */
  cancel(): void {
    if (this.#settled) return;
    this.#cancel.abort();
  }

  on<E extends keyof TransferEvents<Route>>(
    event: E,
    listener: Listener<TransferEvents<Route>[E]>,
  ): this {
    this.#listeners[event].add(listener);
    return this;
  }

  off<E extends keyof TransferEvents<Route>>(
    event: E,
    listener: Listener<TransferEvents<Route>[E]>,
  ): this {
    this.#listeners[event].delete(listener);
    return this;
  }

  /** Every state from the current one on, ending after the final one. */
  async *[Symbol.asyncIterator](): AsyncGenerator<TransferState, void, undefined> {
    const queue: TransferState[] = [this.#state];
    let wake: (() => void) | undefined;
    const listener = (state: TransferState): void => {
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

  async #run(
    run: (control: TransferControl<Route>) => Promise<void>,
    control: TransferControl<Route>,
    fallbackCode: ErrorCode,
  ): Promise<FinalState> {
    await Promise.resolve();
    try {
      await run(control);
    } catch (error) {
      this.#fail(toFailure(error, fallbackCode));
    }
    const state = this.#state;
    const outcome = isFinal(state)
      ? state
      : this.#fail(toFailure(new Error(NO_OUTCOME), fallbackCode));
    this.#settled = true;
    return outcome;
  }

  /** Publishes a failure, which stands unless an outcome came first. */
  #fail(failure: Failure): FinalState {
    const failed: FinalState = { phase: 'failed', direction: this.#state.direction, ...failure };
    this.#update(failed);
    return failed;
  }

  #update(view: TransferView): void {
    if (view.phase === 'idle' || isFinal(this.#state)) return;
    this.#state = view;
    this.#emit('state', view);
  }

  #emit<E extends keyof TransferEvents<Route>>(event: E, ...args: TransferEvents<Route>[E]): void {
    for (const listener of [...this.#listeners[event]]) listener(...args);
  }
}
