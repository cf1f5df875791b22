import { frameByteLength, type Frame } from '../../protocol/frame';
import { FrameInbox } from '../frame-inbox';
import type { ChannelHandlers, ChannelPort } from '../ports';
import type { PeerFingerprints } from '../../verify/sas';

/**
 * An open channel for the session core's unit tests: it records every frame sent, lets the test
 * set the send buffer as a network would drain it (firing the low event the way RTCDataChannel
 * does when the level crosses the threshold), and delivers frames and a close from the peer.
 * End-to-end tests run the same core on node-datachannel and Chromium.
 */
export class ScriptedChannel implements ChannelPort {
  readonly sent: Frame[] = [];
  /** The grace of each close this side asked for. */
  readonly closes: number[] = [];
  readonly released: Promise<void>;
  #buffered = 0;
  #threshold = 0;
  #closedReason: string | undefined;
  readonly #frames = new FrameInbox();
  readonly #low = new Set<() => void>();
  readonly #closed = new Set<(reason: string) => void>();
  #release!: () => void;

  /**
   * The certificates this side sees: undefined plays a stack that cannot tell. A test of the
   * other side swaps `local` and `remote`; a man in the middle makes them differ.
   */
  constructor(
    readonly maxMessageSizeBytes = 0,
    readonly certificates: PeerFingerprints | undefined = undefined,
  ) {
    this.released = new Promise<void>((resolve) => (this.#release = resolve));
  }

  send(frame: Frame): boolean {
    if (this.isClosed) return false;
    this.sent.push(
      frame.kind === 'binary' ? { kind: 'binary', bytes: frame.bytes.slice() } : frame,
    );
    this.#buffered += frameByteLength(frame);
    return true;
  }

  bufferedAmount(): number {
    return this.#buffered;
  }

  setBufferedAmountLowThreshold(bytes: number): void {
    this.#threshold = bytes;
  }

  maxMessageSize(): number {
    return this.maxMessageSizeBytes;
  }

  relayed(): Promise<boolean> {
    return Promise.resolve(false);
  }

  fingerprints(): PeerFingerprints | undefined {
    return this.certificates;
  }

  get isClosed(): boolean {
    return this.#closedReason !== undefined;
  }

  listen(handlers: ChannelHandlers): () => void {
    const { frame, bufferedAmountLow, closed } = handlers;
    const unlistenFrames = frame && this.#frames.listen(frame);
    if (bufferedAmountLow) this.#low.add(bufferedAmountLow);
    if (closed) this.#closed.add(closed);
    return () => {
      unlistenFrames?.();
      if (bufferedAmountLow) this.#low.delete(bufferedAmountLow);
      if (closed) this.#closed.delete(closed);
    };
  }

  close(graceMs: number): void {
    this.closes.push(graceMs);
    this.#end('closed by this side');
    this.#release();
  }

  /** The network took bytes off the buffer: it now holds `bytes`. */
  drainTo(bytes: number): void {
    const crossed = this.#buffered > this.#threshold;
    this.#buffered = bytes;
    if (crossed && bytes <= this.#threshold) for (const low of [...this.#low]) low();
  }

  /** A frame from the peer. */
  receive(frame: Frame): void {
    this.#frames.deliver(frame);
  }

  /** The peer closed the channel. */
  peerCloses(): void {
    this.#end('the data channel closed');
  }

  /** The text frames sent, parsed. */
  get messages(): { type: string; [field: string]: unknown }[] {
    return this.sent.flatMap((frame) =>
      frame.kind === 'text' ? [JSON.parse(frame.text) as { type: string }] : [],
    );
  }

  get dataBytes(): number {
    return this.sent.reduce((sum, f) => sum + (f.kind === 'binary' ? f.bytes.byteLength : 0), 0);
  }

  #end(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    for (const closed of [...this.#closed]) closed(reason);
  }
}
