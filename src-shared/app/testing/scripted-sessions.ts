import type { RunningTransfer, SessionStarter, TransferEvents } from '../app-ports';
import type { IpcError } from '../../ipc/result';
import type { TransferView } from '../../transfer/transfer-view';

/** One transfer a test scripts: it shows what the test says and records what the core asked. */
export class ScriptedTransfer implements RunningTransfer {
  readonly request: unknown;
  readonly #events: TransferEvents;
  /** What the core asked of it, in order. */
  readonly asked: string[] = [];
  /** `answerOffer` and `answerWords` say something was asked while this is true. */
  asking = false;
  readonly closed: Promise<void>;
  #close: () => void = () => undefined;

  constructor(request: unknown, events: TransferEvents) {
    this.request = request;
    this.#events = events;
    this.closed = new Promise<void>((resolve) => {
      this.#close = resolve;
    });
  }

  show(view: TransferView): void {
    this.#events.view(view);
  }

  warn(message: string): void {
    this.#events.warning(message);
  }

  /** Its channel and files are closed. */
  finishClosing(): void {
    this.#close();
  }

  cancel(): void {
    this.asked.push('cancel');
  }

  leave(): void {
    this.asked.push('leave');
  }

  answerOffer(accept: boolean): Promise<boolean> {
    this.asked.push(accept ? 'accept' : 'decline');
    return Promise.resolve(this.asking);
  }

  answerWords(match: boolean): boolean {
    this.asked.push(match ? 'words match' : 'words differ');
    return this.asking;
  }
}

/** A session starter whose transfers a test drives by hand, in place of a real session. */
export class ScriptedSessions implements SessionStarter<unknown> {
  readonly started: ScriptedTransfer[] = [];
  /** The next start is refused with this, as a request that cannot be sent is. */
  refuseNext: IpcError | undefined;

  start(request: unknown, events: TransferEvents): Promise<RunningTransfer | IpcError> {
    const refusal = this.refuseNext;
    this.refuseNext = undefined;
    if (refusal !== undefined) return Promise.resolve(refusal);
    const transfer = new ScriptedTransfer(request, events);
    this.started.push(transfer);
    return Promise.resolve(transfer);
  }

  /** The transfer started last. */
  get last(): ScriptedTransfer {
    const last = this.started.at(-1);
    if (last === undefined) throw new Error('no transfer was started');
    return last;
  }
}
