import type { Failure } from '../../../src-shared/protocol/error-codes';
import { BROWSER_METADATA_DRAIN_BYTES } from '../../../src-shared/protocol/limits';
import {
  createSender,
  type SenderAction,
  type SenderConfig,
  type SenderEvent,
  type SenderMachine,
  type SenderState,
  type SenderTimer,
} from '../../../src-shared/protocol/sender';
import { ChannelClosedError, waitForBuffer } from './channel-buffer';
import { frameOf, sendFrame } from './channel-frames';
import { chunkSizeFor } from './chunk-plan';
import { SourceReadError, streamFile, type ByteSource } from './file-streamer';
import { closeLink } from './link-teardown';
import { MachineTimers } from './machine-timers';
import type { PeerLink } from './peer-connection';

export type SendOutcome =
  { ok: true; files: number; bytes: number } | { ok: false; failure: Failure };

export interface SenderObserver {
  /** The machine moved; called after every event it handled. */
  changed(state: SenderState): void;
  /** A chunk of file `index` went to the channel. */
  sent(index: number, bytes: number): void;
  finished(outcome: SendOutcome): void;
}

/**
 * Drives the protocol's sender machine over an open data channel: it carries out the machine's
 * actions in order and reports what the channel, the files and the clock do. What the protocol
 * means stays in the machine.
 */
export class SenderSession {
  readonly #link: PeerLink;
  readonly #config: SenderConfig;
  readonly #machine: SenderMachine;
  readonly #sources: readonly ByteSource[];
  readonly #observer: SenderObserver;
  readonly #timers: MachineTimers<SenderTimer>;
  /** Aborted when the transfer ends: stops streaming and every wait on the buffer. */
  readonly #ended = new AbortController();
  #queue: Promise<void> = Promise.resolve();

  constructor(
    link: PeerLink,
    config: SenderConfig,
    sources: readonly ByteSource[],
    observer: SenderObserver,
  ) {
    this.#link = link;
    this.#config = config;
    this.#machine = createSender(config);
    this.#sources = sources;
    this.#observer = observer;
    this.#timers = new MachineTimers((timer) => this.#feed({ type: 'timer-fired', timer }));
  }

  get state(): SenderState {
    return this.#machine.state;
  }

  /** Starts the batch; `relayed` says whether the route runs through a TURN relay. */
  start(relayed: boolean): void {
    const { channel, pc } = this.#link;
    channel.addEventListener('message', ({ data }) => {
      const frame = frameOf(data);
      if (frame) this.#feed({ type: 'frame', frame });
    });
    channel.addEventListener('close', () => this.#closed());
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'failed' || pc.connectionState === 'closed') this.#closed();
    });
    if (channel.readyState !== 'open') this.#closed();
    else this.#feed({ type: 'channel-open', relayed });
  }

  cancel(): void {
    this.#feed({ type: 'cancel' });
  }

  #closed(): void {
    this.#feed({ type: 'channel-closed' });
    this.#link.close();
  }

  #feed(event: SenderEvent): void {
    const actions = this.#machine.handle(event);
    for (const action of actions) this.#react(action);
    if (actions.length > 0) this.#observer.changed(this.#machine.state);
  }

  /** Timers and the outcome take effect at once; what touches the channel keeps its order. */
  #react(action: SenderAction): void {
    switch (action.type) {
      case 'set-timer':
      case 'clear-timer':
        return this.#timers.apply(action);
      case 'complete':
        this.#end();
        return this.#observer.finished({ ok: true, files: action.files, bytes: action.bytes });
      case 'fail':
        this.#end();
        return this.#observer.finished({
          ok: false,
          failure: { code: action.code, message: action.message },
        });
      case 'send':
      case 'stream-file':
      case 'watch-buffer':
      case 'close':
        this.#queue = this.#queue.then(() => this.#perform(action)).catch(ignoreClosed);
        return;
    }
  }

  #end(): void {
    this.#timers.clearAll();
    this.#ended.abort(new ChannelClosedError());
  }

  async #perform(action: SenderAction): Promise<void> {
    const { channel } = this.#link;
    switch (action.type) {
      case 'send':
        // The spec drains below 64 KiB before each file's metadata; every text frame waits the
        // same way, which costs nothing for `end`, sent just before the next metadata, and keeps
        // an abort reason from queueing behind megabytes of data. A finished transfer's final
        // frame (an abort reason) still goes out, so this wait does not stop at the end.
        if (action.frame.kind === 'text') {
          await waitForBuffer(channel, BROWSER_METADATA_DRAIN_BYTES, neverAborted);
        }
        return sendFrame(channel, action.frame);
      case 'stream-file':
        return this.#stream(action.index, action.offset);
      case 'watch-buffer':
        return this.#watchBuffer();
      case 'close':
        return closeLink(this.#link, action.flushMs);
      default:
        return;
    }
  }

  /** Starts streaming without holding up the queue: a cancel's close must not wait for it. */
  #stream(index: number, offset: number): void {
    const { channel, pc } = this.#link;
    const source = this.#sources[index];
    const { fileSize } = this.#config.files[index];
    const target = {
      channel,
      chunkBytes: chunkSizeFor(pc.sctp?.maxMessageSize),
      sent: (bytes: number) => this.#observer.sent(index, bytes),
    };
    streamFile(source, offset, fileSize, target, this.#ended.signal).then(
      () => this.#feed({ type: 'file-streamed', index }),
      (error: unknown) => {
        if (!(error instanceof SourceReadError)) return;
        this.#feed({
          type: error.changed ? 'source-changed' : 'source-unreadable',
          index,
          detail: error.message,
        });
      },
    );
  }

  /** Reports the buffer now and again once it is empty: a browser sender completes only then. */
  #watchBuffer(): void {
    const { channel } = this.#link;
    this.#feed({ type: 'buffered-amount', bytes: channel.bufferedAmount });
    waitForBuffer(channel, 0, this.#ended.signal).then(
      () => this.#feed({ type: 'buffered-amount', bytes: 0 }),
      ignoreClosed,
    );
  }
}

const neverAborted = new AbortController().signal;

/** Work left in the queue when the channel closes has nowhere to go. */
function ignoreClosed(error: unknown): void {
  if (error instanceof ChannelClosedError) return;
  if (error instanceof DOMException && error.name === 'InvalidStateError') return;
  console.error('Ferry’s sender hit an unexpected error', error);
}
