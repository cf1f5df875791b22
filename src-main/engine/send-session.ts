import {
  binaryFrame,
  createSender,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
  type PeerVersion,
  type RemedySurface,
  type SenderAction,
  type SenderEvent,
  type SenderFile,
  type SenderMachine,
  type SenderTimer,
} from '../../src-shared/protocol';
import { chunkSizeFor } from './chunk-size';
import { DriverTimers } from './driver-timers';
import type { EngineTimeouts } from './engine-options';
import type { PeerLink } from './peer-link';
import { ProgressMeter } from './progress-meter';
import type { SendFile } from './send-list';
import { SourceReader } from './source-reader';
import type { TransferControl } from './transfer';

export interface SendSessionConfig {
  link: PeerLink;
  files: readonly SendFile[];
  /** What the metadata announces for each file; the files themselves unless a test lies. */
  announced: readonly SenderFile[];
  local: PeerVersion;
  remedySurface: RemedySurface;
  timeouts: EngineTimeouts;
  control: TransferControl;
}

/**
 * Drives the sender machine over an open link: carries out its actions (frames, file streaming
 * with flow control, timers, close) and feeds back what happened. Resolves once the link is
 * closed, by then with the Transfer in its final state.
 */
export function runSendSession(config: SendSessionConfig): Promise<void> {
  return new SendSession(config).finished;
}

class SendSession {
  readonly finished: Promise<void>;
  readonly #config: SendSessionConfig;
  readonly #link: PeerLink;
  readonly #machine: SenderMachine;
  readonly #timers: DriverTimers<SenderTimer>;
  readonly #progress: ProgressMeter;
  readonly #chunkBytes: number;
  readonly #totalBytes: number;
  #bufferWaiters: (() => void)[] = [];
  #watchingBuffer = false;
  #finish: () => void = () => undefined;

  constructor(config: SendSessionConfig) {
    this.#config = config;
    const { link, timeouts, control } = config;
    this.#link = link;
    this.#chunkBytes = chunkSizeFor(link.maxMessageSize());
    this.#totalBytes = config.files.reduce((sum, file) => sum + file.size, 0);
    this.#machine = createSender({
      files: config.announced,
      local: config.local,
      surface: 'native',
      remedySurface: config.remedySurface,
    });
    this.#timers = new DriverTimers<SenderTimer>(
      { ack: timeouts.ack, drain: timeouts.drainStall, delivery: timeouts.delivery },
      (timer) => this.#timerDue(timer),
    );
    this.#progress = new ProgressMeter((progress) =>
      control.update({ phase: 'transferring', progress }),
    );
    this.finished = new Promise<void>((resolve) => (this.#finish = resolve));

    link.on('frame', (frame) => this.#handle({ type: 'frame', frame }));
    link.on('buffered-amount-low', () => this.#bufferLow());
    link.on('closed', () => this.#linkClosed());
    const onCancel = () => this.#handle({ type: 'cancel' });
    control.cancelled.addEventListener('abort', onCancel, { once: true });
    this.finished.then(() => control.cancelled.removeEventListener('abort', onCancel));

    control.update({ phase: 'awaiting-acceptance' });
    if (control.cancelled.aborted) onCancel();
    else if (link.isClosed) this.#linkClosed();
    else this.#handle({ type: 'channel-open', relayed: link.route().relayed });
  }

  get #active(): boolean {
    const phase = this.#machine.state.phase;
    return phase !== 'done' && phase !== 'failed';
  }

  #handle(event: SenderEvent): void {
    for (const action of this.#machine.handle(event)) this.#carryOut(action);
  }

  #carryOut(action: SenderAction): void {
    const { control } = this.#config;
    switch (action.type) {
      case 'send':
        this.#link.send(action.frame);
        return;
      case 'stream-file':
        this.#stream(action.index, action.offset).catch((error: unknown) =>
          this.#handle({ type: 'source-unreadable', index: action.index, detail: String(error) }),
        );
        return;
      case 'watch-buffer':
        this.#watchBuffer();
        return;
      case 'set-timer':
      case 'clear-timer':
        this.#timers.apply(action);
        return;
      case 'complete':
        control.update({
          phase: 'done',
          files: this.#config.files.map((file) => ({ name: file.name, size: file.size })),
          totalBytes: action.bytes,
        });
        return;
      case 'fail':
        control.update({ phase: 'failed', code: action.code, message: action.message });
        return;
      case 'close':
        void this.#close(action.flushMs);
        return;
    }
  }

  async #stream(index: number, offset: number): Promise<void> {
    const file = this.#config.files[index];
    const stillStreaming = () => {
      const state = this.#machine.state;
      return state.phase === 'streaming' && state.index === index;
    };
    const opened = await SourceReader.open(file, this.#chunkBytes, offset);
    if (!(opened instanceof SourceReader)) {
      this.#handle({ type: 'source-unreadable', index, detail: opened.detail });
      return;
    }
    const reader = opened;
    try {
      const changedBefore = await reader.change();
      if (changedBefore !== undefined) {
        this.#handle({ type: 'source-changed', index, detail: changedBefore });
        return;
      }
      this.#link.setBufferedAmountLowThreshold(SEND_BUFFER_LOW_WATER_BYTES - 1);
      const before = this.#config.files.slice(0, index).reduce((sum, f) => sum + f.size, 0);
      let position = offset;
      this.#report(index, position, before);
      while (!reader.done && stillStreaming()) {
        if (this.#link.bufferedAmount() > SEND_BUFFER_HIGH_WATER_BYTES) {
          await this.#pause(stillStreaming);
          if (!stillStreaming()) return;
        }
        const read = await reader.next();
        if (!stillStreaming()) return;
        if (read.kind === 'changed') {
          this.#handle({ type: 'source-changed', index, detail: read.detail });
          return;
        }
        if (read.kind === 'unreadable') {
          this.#handle({ type: 'source-unreadable', index, detail: read.detail });
          return;
        }
        // A refused send means the channel is gone; its close event ends the machine.
        if (!this.#link.send(binaryFrame(read.bytes))) return;
        position += read.bytes.byteLength;
        this.#report(index, position, before);
      }
      if (!stillStreaming()) return;
      const changedAfter = await reader.change();
      if (!stillStreaming()) return;
      if (changedAfter !== undefined)
        this.#handle({ type: 'source-changed', index, detail: changedAfter });
      else this.#handle({ type: 'file-streamed', index });
    } finally {
      await reader.close();
    }
  }

  /** Waits above the high-water mark until the buffer falls below the low-water mark. */
  async #pause(stillStreaming: () => boolean): Promise<void> {
    this.#handle({ type: 'buffered-amount', bytes: this.#link.bufferedAmount() });
    while (stillStreaming() && this.#link.bufferedAmount() >= SEND_BUFFER_LOW_WATER_BYTES) {
      await new Promise<void>((resolve) => this.#bufferWaiters.push(resolve));
    }
    if (stillStreaming()) {
      this.#handle({ type: 'buffered-amount', bytes: this.#link.bufferedAmount() });
    }
  }

  #report(index: number, fileBytes: number, before: number): void {
    const file = this.#config.files[index];
    this.#progress.record({
      fileIndex: index + 1,
      fileCount: this.#config.files.length,
      fileName: file.name,
      fileBytes,
      fileSize: file.size,
      bytesDone: before + fileBytes,
      totalBytes: this.#totalBytes,
    });
  }

  /** After the batch: every drop of the buffer is reported, its reaching zero included. */
  #watchBuffer(): void {
    this.#watchingBuffer = true;
    this.#link.setBufferedAmountLowThreshold(0);
    this.#handle({ type: 'buffered-amount', bytes: this.#link.bufferedAmount() });
  }

  #bufferLow(): void {
    const waiters = this.#bufferWaiters;
    this.#bufferWaiters = [];
    for (const wake of waiters) wake();
    if (this.#watchingBuffer && this.#active) {
      this.#handle({ type: 'buffered-amount', bytes: this.#link.bufferedAmount() });
    }
  }

  /**
   * The drain and delivery deadlines mean "no shrink at all": before one fires, the buffer is
   * measured, and a new low re-arms the timer instead.
   */
  #timerDue(timer: SenderTimer): void {
    if (timer === 'drain' || timer === 'delivery') {
      this.#handle({ type: 'buffered-amount', bytes: this.#link.bufferedAmount() });
      if (this.#timers.isRunning(timer) || !this.#active) return;
    }
    this.#handle({ type: 'timer-fired', timer });
  }

  async #close(flushMs: number): Promise<void> {
    const { abortFlush } = this.#config.timeouts;
    // A delivered batch or an abort reason may still be on its way; the peer closing its side
    // says it has landed. Anything else closes at once.
    const landing = flushMs > 0 || this.#machine.state.phase === 'done';
    if (flushMs > 0) await this.#link.drained(abortFlush);
    this.#link.close(landing ? abortFlush : 0);
  }

  #linkClosed(): void {
    this.#handle({ type: 'channel-closed' });
    this.#timers.clearAll();
    this.#bufferLow();
    this.#link.close(0);
    void this.#link.released.then(() => this.#finish());
  }
}
