import { binaryFrame } from '../protocol/frame';
import type { Surface } from '../protocol/frame-classification';
import {
  BROWSER_METADATA_DRAIN_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../protocol/limits';
import {
  createSender,
  type SenderAction,
  type SenderEvent,
  type SenderFile,
  type SenderMachine,
  type SenderState,
  type SenderTimer,
} from '../protocol/sender';
import type { PeerVersion } from '../protocol/version-negotiation';
import type { RemedySurface } from '../protocol/version-remedy';
import type { TransferView } from '../transfer/transfer-view';
import { ChannelBuffer } from './channel-buffer';
import { chunkSizeFor } from './chunk-plan';
import type { FileSource, SourceReader } from './file-source';
import type { ChannelPort, Clock } from './ports';
import { ProgressMeter } from './progress-meter';
import { CHANNEL_CLOSE_GRACE_MS } from './session-limits';
import { SessionTimers } from './session-timers';

export interface SendSessionConfig {
  channel: ChannelPort;
  clock: Clock;
  surface: Surface;
  sources: readonly FileSource[];
  /** What the metadata announces for each source; the sources themselves unless a test lies. */
  announced: readonly SenderFile[];
  local: PeerVersion;
  remedySurface: RemedySurface;
  /** The code the receiver used, for the "waiting for acceptance" view. */
  code: string;
  publish(view: TransferView): void;
  cancelled: AbortSignal;
  /** Called once the first ack or incompatible has arrived: the transfer has started on both ends. */
  started(): void;
  /** Tests shorten the machine's timers by name. */
  timers?: Partial<Record<SenderTimer, number>>;
  /** How long an abort reason or a closing channel may take to land (docs/protocol.md, "Aborts with a reason", "End of batch"). */
  flushMs?: number;
  closeGraceMs?: number;
}

/**
 * Drives the protocol's sender machine over an open channel, on every surface: it carries out the
 * machine's actions (frames in order, file streaming with the 8 MiB / 4 MiB flow control, timers,
 * close) and feeds back what the channel, the files and the clock do. Resolves once the channel is
 * closed and let go, by then with the outcome published.
 */
export function runSendSession(config: SendSessionConfig): Promise<void> {
  return new SendSession(config).finished;
}

class SendSession {
  readonly finished: Promise<void>;
  readonly #config: SendSessionConfig;
  readonly #channel: ChannelPort;
  readonly #buffer: ChannelBuffer;
  readonly #machine: SenderMachine;
  readonly #timers: SessionTimers<SenderTimer>;
  readonly #progress: ProgressMeter;
  readonly #chunkBytes: number;
  readonly #totalBytes: number;
  /** Frames and the close keep the machine's order, even when a browser waits to send one. */
  #queue: Promise<void> = Promise.resolve();
  #watchingBuffer = false;
  #started = false;
  #finalPublished = false;
  #finish: () => void = () => undefined;

  constructor(config: SendSessionConfig) {
    this.#config = config;
    const { channel, clock, cancelled } = config;
    this.#channel = channel;
    this.#buffer = new ChannelBuffer(channel, clock);
    this.#chunkBytes = chunkSizeFor(channel.maxMessageSize(), config.surface);
    this.#totalBytes = config.sources.reduce((sum, file) => sum + file.size, 0);
    this.#machine = createSender({
      files: config.announced,
      local: config.local,
      surface: config.surface,
      remedySurface: config.remedySurface,
    });
    this.#timers = new SessionTimers<SenderTimer>(clock, config.timers ?? {}, (timer) =>
      this.#timerDue(timer),
    );
    this.#progress = new ProgressMeter(
      () => clock.now(),
      (progress) => this.#publish({ phase: 'transferring', direction: 'send', progress }),
    );
    this.finished = new Promise<void>((resolve) => (this.#finish = resolve));

    const unlisten = channel.listen({
      frame: (frame) => this.#handle({ type: 'frame', frame }),
      bufferedAmountLow: () => this.#bufferLow(),
      closed: () => this.#channelClosed(),
    });
    const onCancel = (): void => this.#handle({ type: 'cancel' });
    cancelled.addEventListener('abort', onCancel, { once: true });
    void this.finished.then(() => {
      unlisten();
      cancelled.removeEventListener('abort', onCancel);
    });

    this.#publish({ phase: 'waiting-for-acceptance', direction: 'send', code: config.code });
    if (cancelled.aborted) onCancel();
    else if (channel.isClosed) this.#channelClosed();
    else {
      const open = (relayed: boolean): void => this.#handle({ type: 'channel-open', relayed });
      // A route the stack cannot describe is taken as direct: only the relay cap depends on it.
      channel.relayed().then(open, () => open(false));
    }
  }

  get #active(): boolean {
    const phase = this.#machine.state.phase;
    return phase !== 'done' && phase !== 'failed';
  }

  #handle(event: SenderEvent): void {
    const before = this.#machine.state;
    for (const action of this.#machine.handle(event)) this.#carryOut(action);
    if (!this.#started && event.type === 'frame' && startedBy(before, this.#machine.state)) {
      this.#started = true;
      this.#config.started();
    }
  }

  #carryOut(action: SenderAction): void {
    switch (action.type) {
      case 'set-timer':
      case 'clear-timer':
        this.#timers.apply(action);
        return;
      case 'stream-file':
        this.#stream(action.index, action.offset).catch((error: unknown) =>
          this.#handle({ type: 'source-unreadable', index: action.index, detail: String(error) }),
        );
        return;
      case 'watch-buffer':
        this.#watchBuffer();
        return;
      case 'complete': {
        const files = this.#config.sources.map((file) => ({ name: file.name, size: file.size }));
        this.#publish({
          phase: 'done',
          direction: 'send',
          files,
          totalBytes: action.bytes,
          ...(action.confirmed === undefined ? {} : { confirmed: action.confirmed }),
        });
        return;
      }
      case 'fail':
        this.#publish({
          phase: 'failed',
          direction: 'send',
          code: action.code,
          message: action.message,
        });
        return;
      case 'send':
      case 'close':
        this.#queue = this.#queue.then(() => this.#perform(action));
        return;
    }
  }

  async #perform(action: Extract<SenderAction, { type: 'send' | 'close' }>): Promise<void> {
    if (action.type === 'send') {
      // A browser drains below 64 KiB before each metadata (docs/protocol.md, "Flow control"); every text frame of
      // a running batch waits the same way, which costs nothing for `end`.
      if (this.#config.surface === 'browser' && action.frame.kind === 'text' && this.#active) {
        await this.#buffer.below(BROWSER_METADATA_DRAIN_BYTES);
      }
      this.#channel.send(action.frame);
      return;
    }
    // A delivered batch or an abort reason may still be on its way: the peer closing its side
    // says it has landed. Anything else closes at once.
    const landing = action.flushMs > 0 || this.#machine.state.phase === 'done';
    if (action.flushMs > 0) await this.#buffer.drained(this.#config.flushMs ?? action.flushMs);
    this.#channel.close(landing ? (this.#config.closeGraceMs ?? CHANNEL_CLOSE_GRACE_MS) : 0);
  }

  async #stream(index: number, offset: number): Promise<void> {
    const source = this.#config.sources[index];
    const stillStreaming = (): boolean => {
      const state = this.#machine.state;
      return state.phase === 'streaming' && state.index === index;
    };
    const opened = await source.open(offset, this.#chunkBytes);
    if ('kind' in opened) {
      this.#handle({ type: 'source-unreadable', index, detail: opened.detail });
      return;
    }
    try {
      await this.#pump(opened, index, offset, stillStreaming);
    } finally {
      await opened.close();
    }
  }

  /** Sends the file chunk by chunk, pausing above the high-water mark until below the low one. */
  async #pump(
    reader: SourceReader,
    index: number,
    offset: number,
    stillStreaming: () => boolean,
  ): Promise<void> {
    const changedBefore = await reader.change();
    if (changedBefore !== undefined) {
      this.#handle({ type: 'source-changed', index, detail: changedBefore });
      return;
    }
    const before = this.#config.sources.slice(0, index).reduce((sum, f) => sum + f.size, 0);
    let position = offset;
    this.#report(index, position, before);
    while (!reader.done && stillStreaming()) {
      if (this.#channel.bufferedAmount() > SEND_BUFFER_HIGH_WATER_BYTES) {
        this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
        await this.#buffer.below(SEND_BUFFER_LOW_WATER_BYTES, stillStreaming);
        if (!stillStreaming()) return;
        this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
      }
      const read = await reader.next();
      if (!stillStreaming()) return;
      if (read.kind !== 'bytes') {
        const type = read.kind === 'changed' ? 'source-changed' : 'source-unreadable';
        this.#handle({ type, index, detail: read.detail });
        return;
      }
      // A refused send means the channel is gone; its close event ends the machine.
      if (!this.#channel.send(binaryFrame(read.bytes))) return;
      position += read.bytes.byteLength;
      this.#report(index, position, before);
    }
    if (!stillStreaming()) return;
    const changedAfter = await reader.change();
    if (!stillStreaming()) return;
    if (changedAfter !== undefined) {
      this.#handle({ type: 'source-changed', index, detail: changedAfter });
    } else this.#handle({ type: 'file-streamed', index });
  }

  #report(index: number, fileBytes: number, before: number): void {
    const file = this.#config.sources[index];
    this.#progress.record({
      fileIndex: index + 1,
      fileCount: this.#config.sources.length,
      fileName: file.name,
      fileBytes,
      fileSize: file.size,
      bytesDone: before + fileBytes,
      totalBytes: this.#totalBytes,
    });
  }

  /** After the batch every drop of the buffer is reported, its reaching zero included. */
  #watchBuffer(): void {
    this.#watchingBuffer = true;
    this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
    void this.#buffer
      .below(0, () => this.#active)
      .then((empty) => {
        if (empty) this.#handle({ type: 'buffered-amount', bytes: 0 });
      });
  }

  #bufferLow(): void {
    this.#buffer.wake();
    if (this.#watchingBuffer && this.#active) {
      this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
    }
  }

  /**
   * The drain and delivery deadlines mean "no shrink at all": before one fires, the buffer is
   * measured, and a new low re-arms the timer instead.
   */
  #timerDue(timer: SenderTimer): void {
    if (timer === 'drain' || timer === 'delivery') {
      this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
      if (this.#timers.isRunning(timer) || !this.#active) return;
    }
    this.#handle({ type: 'timer-fired', timer });
  }

  #publish(view: TransferView): void {
    if (this.#finalPublished) return;
    this.#finalPublished = view.phase === 'done' || view.phase === 'failed';
    this.#config.publish(view);
  }

  #channelClosed(): void {
    this.#handle({ type: 'channel-closed' });
    this.#timers.clearAll();
    this.#buffer.wake();
    this.#channel.close(0);
    void this.#queue.then(() => this.#channel.released).then(() => this.#finish());
  }
}

/** The first ack or incompatible has arrived once the machine leaves its first wait for an ack. */
function startedBy(before: SenderState, after: SenderState): boolean {
  return before.phase === 'awaiting-ack' && after !== before;
}
