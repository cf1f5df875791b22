import type { Frame } from './control-frames';
import { failure, type Tripwire } from './failure';

/** An open data channel as the protocol code uses it, whatever WebRTC stack is underneath. */
export interface SpecChannel {
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  bufferedAmount(): number;
  /** The negotiated maximum message size, or undefined when the stack does not say. */
  maxMessageSize(): number | undefined;
  /** Calls `listener` whenever the send buffer falls to `threshold` bytes or below. */
  onBufferedAmountLow(threshold: number, listener: () => void): void;
  close(): void;
}

export interface ArrivedFrame {
  frame: Frame;
  /** Position in arrival order, from 1: tells frames that came before a reply from those after. */
  seq: number;
}

/**
 * Every frame the channel delivered, in order, and whether it closed. Adapters feed it from the
 * moment the channel object exists: the other side may send the instant its own end opens.
 */
export class FrameInbox {
  readonly #frames: ArrivedFrame[] = [];
  #arrived = 0;
  #closed = false;
  #wake: (() => void) | undefined;

  push(frame: Frame): void {
    this.#arrived += 1;
    this.#frames.push({ frame, seq: this.#arrived });
    this.#notify();
  }

  markClosed(): void {
    this.#closed = true;
    this.#notify();
  }

  /** Frames delivered so far, taken or not. */
  get arrived(): number {
    return this.#arrived;
  }

  /** Closed, with nothing left to read before the close. */
  get drainedAndClosed(): boolean {
    return this.#closed && this.#frames.length === 0;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The next frame without waiting, if one is there. */
  poll(): ArrivedFrame | undefined {
    return this.#frames.shift();
  }

  /**
   * The next frame, or `closed` once the channel closed and every earlier frame was read. Fails
   * after `withinMs` with nothing, naming `waitingFor`, or when `tripwire` trips.
   */
  async next(
    withinMs: number,
    waitingFor: string,
    tripwire: Tripwire,
  ): Promise<ArrivedFrame | 'closed'> {
    tripwire.check();
    const ready = this.poll();
    if (ready) return ready;
    if (this.#closed) return 'closed';
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await tripwire.race(
        new Promise<void>((resolve, reject) => {
          this.#wake = resolve;
          timer = setTimeout(
            () => reject(failure(`nothing arrived within ${withinMs} ms while ${waitingFor}`)),
            withinMs,
          );
        }),
      );
    } finally {
      clearTimeout(timer);
      this.#wake = undefined;
    }
    return this.poll() ?? 'closed';
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
