// The sender's half of the data-channel spec's per-file sequence: metadata, ack, chunks, end,
// then the end of the batch by the rules of the kind of sender this peer plays.
import type { FrameInbox, SpecChannel } from './channel';
import {
  decodeForSender,
  encodeControl,
  versionsOverlap,
  type Ack,
  type Profile,
} from './control-frames';
import { failure, violation, type Trace, type Tripwire } from './failure';
import {
  ABORT_FLUSH_MS,
  ACK_MS,
  BROWSER_METADATA_DRAIN_BYTES,
  BUFFER_POLL_MS,
  CHUNK_CAP_BYTES,
  CHUNK_FALLBACK_BYTES,
  DELIVERY_MS,
  DRAIN_STALL_MS,
  PROTOCOL_VERSION,
  REASON_DISPLAY_CHARS,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
  SPEC_PEER_VER,
} from './limits';

export interface SourceFile {
  /** Relative, `/`-separated: a folder's files carry their path inside it. */
  name: string;
  size: number;
  /** `length` bytes from `offset`; fewer means the file changed since its size was taken. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface SendOutcome {
  /** The receiver's `ver`; absent when it is a browser receiver. */
  receiverVer: string | undefined;
  /** A native receiver's `received` arrived. */
  confirmed: boolean;
}

export interface BatchContext {
  channel: SpecChannel;
  inbox: FrameInbox;
  tripwire: Tripwire;
  trace: Trace;
  profile: Profile;
}

/** `misannounce`: a hostile sender's size for file `index` (1-based), announced instead of the truth. */
export async function sendBatch(
  context: BatchContext,
  files: readonly SourceFile[],
  misannounce: (index: number) => number | undefined = () => undefined,
): Promise<SendOutcome> {
  const { channel, trace, profile } = context;
  const negotiated = channel.maxMessageSize();
  const chunkBytes =
    negotiated !== undefined && negotiated > 0
      ? Math.min(negotiated, CHUNK_CAP_BYTES)
      : CHUNK_FALLBACK_BYTES[profile];
  trace.record(`chunks of ${chunkBytes} bytes (negotiated ${negotiated ?? 'unknown'})`);
  const buffer = new SendBuffer(context);
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  let receiverVer: string | undefined;
  let receiverNative: boolean | undefined;

  for (const [position, file] of files.entries()) {
    const index = position + 1;
    const id = `spec-${index}`;
    if (profile === 'browser') {
      await buffer.below(BROWSER_METADATA_DRAIN_BYTES, `file ${index}'s metadata waited`);
    }
    const fileSize = misannounce(index) ?? file.size;
    sendControl(context, {
      type: 'metadata',
      id,
      fileName: file.name,
      fileSize,
      index,
      total: files.length,
      totalBytes,
      ...PROTOCOL_VERSION,
      ...(profile === 'native' ? { ver: SPEC_PEER_VER } : {}),
    });
    trace.record(`sent metadata ${index}/${files.length} ${file.name} (${fileSize} bytes)`);

    const ack = await awaitAck(context, id, index);
    const native = ack.ver !== undefined;
    if (receiverNative !== undefined && native !== receiverNative) {
      throw violation(`the receiver's ack for file ${index} changed whether it carries ver`);
    }
    receiverNative = native;
    receiverVer = ack.ver;

    for (let offset = 0; offset < file.size; offset += chunkBytes) {
      if (channel.bufferedAmount() > SEND_BUFFER_HIGH_WATER_BYTES) {
        await buffer.below(SEND_BUFFER_LOW_WATER_BYTES, `file ${index} paused at high water`);
      }
      takeUnexpected(context, `file ${index} was being sent`);
      const length = Math.min(chunkBytes, file.size - offset);
      const bytes = await file.read(offset, length);
      if (bytes.byteLength !== length) {
        await abort(context, buffer, `${file.name} changed on disk while it was being sent`);
      }
      channel.sendBinary(bytes);
    }
    sendControl(context, { type: 'end' });
    trace.record(`sent end ${index}`);
  }

  // Data-channel spec, per-file rule 5. A receiver that announced `ver` is native and sends
  // `received` after the batch (the spec's "What the service does"); this peer holds it to that.
  if (profile === 'native' && receiverNative === true) {
    await awaitReceived(context);
    return { receiverVer, confirmed: true };
  }
  const confirmed = await buffer.empty(receiverNative === true);
  trace.record('send buffer drained to zero');
  return { receiverVer, confirmed };
}

/** Data-channel spec, frame classification rule 5: everything but file data goes as text. */
function sendControl(
  context: BatchContext,
  message: Record<string, unknown> & { type: string },
): void {
  context.tripwire.check();
  if (context.inbox.closed) throw failure(`the channel closed before ${message.type} could go`);
  context.channel.sendText(encodeControl(message));
}

async function awaitAck(context: BatchContext, id: string, index: number): Promise<Ack> {
  const { inbox, tripwire, trace } = context;
  for (;;) {
    const arrived = await inbox.next(ACK_MS, `file ${index} waited for its ack`, tripwire);
    if (arrived === 'closed') {
      throw failure(`the receiver closed the channel while file ${index} waited for its ack`);
    }
    const decoded = decodeForSender(arrived.frame);
    if (!decoded.known) {
      trace.record(`ignored a message of unknown type "${decoded.type}"`);
      continue;
    }
    const message = decoded.message;
    if (message.type === 'incompatible') throw refused(message.reason, message.pv, message.pvMin);
    if (message.type !== 'ack') {
      throw violation(`"${message.type}" arrived while file ${index} waited for its ack`);
    }
    if (message.id !== id) throw violation(`an ack for "${message.id}" arrived; "${id}" is due`);
    if (message.offset !== 0) {
      throw violation(
        `the ack for file ${index} asks for offset ${message.offset}; it is always 0`,
      );
    }
    // Frame classification rule 4: native receivers send ack as binary, browsers as text; only
    // native receivers carry `ver`.
    const framing = arrived.frame.kind;
    if (message.ver !== undefined && framing !== 'binary') {
      throw violation(`a native receiver (ver ${message.ver}) sent its ack as text`);
    }
    if (message.ver === undefined && framing !== 'text') {
      throw violation('a receiver without ver (a browser) sent its ack as binary');
    }
    if (!versionsOverlap(message)) {
      throw violation(
        `the receiver acked although its range ${message.pvMin}..${message.pv} misses ours; it must send incompatible`,
      );
    }
    trace.record(`ack ${index} (${framing}${message.ver ? `, ver ${message.ver}` : ''})`);
    return message;
  }
}

async function awaitReceived(context: BatchContext): Promise<void> {
  const { inbox, tripwire, trace } = context;
  for (;;) {
    const arrived = await inbox.next(DELIVERY_MS, 'the batch waited for received', tripwire);
    if (arrived === 'closed') {
      throw violation('the native receiver closed the channel without sending received');
    }
    const decoded = decodeForSender(arrived.frame);
    if (!decoded.known) {
      trace.record(`ignored a message of unknown type "${decoded.type}"`);
      continue;
    }
    const message = decoded.message;
    if (message.type === 'incompatible') throw refused(message.reason, message.pv, message.pvMin);
    if (message.type !== 'received') throw violation(`"${message.type}" arrived after the batch`);
    if (arrived.frame.kind !== 'binary') throw violation('a native receiver sent received as text');
    trace.record('received arrived');
    return;
  }
}

/** Anything the receiver sent while this peer was sending bytes: only unknown types may be. */
function takeUnexpected(context: BatchContext, during: string): void {
  for (let arrived = context.inbox.poll(); arrived; arrived = context.inbox.poll()) {
    const decoded = decodeForSender(arrived.frame);
    if (!decoded.known) continue;
    if (decoded.message.type === 'incompatible') {
      const { reason, pv, pvMin } = decoded.message;
      throw refused(reason, pv, pvMin);
    }
    throw violation(`"${decoded.message.type}" arrived while ${during}`);
  }
  if (context.inbox.closed) throw failure(`the channel closed while ${during}`);
}

function refused(reason: string, pv: number, pvMin: number): Error {
  return failure(
    `the receiver sent incompatible (pv ${pv}, pvMin ${pvMin}): ${reason.slice(0, REASON_DISPLAY_CHARS)}`,
  );
}

/** Data-channel spec, "incompatible" rules 2, 3 and 5: a reason as text, flushed, then fail. */
async function abort(context: BatchContext, buffer: SendBuffer, reason: string): Promise<never> {
  sendControl(context, {
    type: 'incompatible',
    reason,
    ...PROTOCOL_VERSION,
    ...(context.profile === 'native' ? { ver: SPEC_PEER_VER } : {}),
  });
  await buffer.flush(ABORT_FLUSH_MS);
  throw failure(reason);
}

/** Waits on the channel's send buffer: the low-water event, and a poll for stalls and zero. */
class SendBuffer {
  readonly #context: BatchContext;
  #wake: (() => void) | undefined;

  constructor(context: BatchContext) {
    this.#context = context;
    context.channel.onBufferedAmountLow(SEND_BUFFER_LOW_WATER_BYTES - 1, () => this.#wake?.());
  }

  /** Until the buffer holds fewer than `limit` bytes; 60 s without shrinking fails. */
  async below(limit: number, what: string): Promise<void> {
    const { channel } = this.#context;
    let lowest = channel.bufferedAmount();
    let shrankAt = Date.now();
    while (channel.bufferedAmount() >= limit) {
      takeUnexpected(this.#context, what);
      await this.#pause();
      const now = channel.bufferedAmount();
      if (now < lowest) {
        lowest = now;
        shrankAt = Date.now();
      } else if (Date.now() - shrankAt > DRAIN_STALL_MS) {
        throw failure(`the send buffer did not shrink for ${DRAIN_STALL_MS} ms while ${what}`);
      }
    }
  }

  /**
   * Until the buffer is empty. Only a native receiver sends `received`: from anyone else it is a
   * violation; from a native one (to a browser-profile sender, which ignores it) it is noted.
   */
  async empty(receiverNative: boolean): Promise<boolean> {
    const { channel, inbox, trace } = this.#context;
    let confirmed = false;
    let lowest = channel.bufferedAmount();
    let shrankAt = Date.now();
    for (;;) {
      for (let arrived = inbox.poll(); arrived; arrived = inbox.poll()) {
        const decoded = decodeForSender(arrived.frame);
        if (!decoded.known) continue;
        const message = decoded.message;
        if (message.type === 'incompatible') {
          throw refused(message.reason, message.pv, message.pvMin);
        }
        if (message.type !== 'received' || !receiverNative || confirmed) {
          throw violation(`"${message.type}" arrived while the batch drained`);
        }
        trace.record('received arrived (a browser sender ignores it)');
        confirmed = true;
      }
      if (channel.bufferedAmount() === 0) return confirmed;
      if (inbox.closed) throw failure('the channel closed before the send buffer drained');
      this.#context.tripwire.check();
      await this.#pause();
      const now = channel.bufferedAmount();
      if (now < lowest) {
        lowest = now;
        shrankAt = Date.now();
      } else if (Date.now() - shrankAt > DELIVERY_MS) {
        throw failure(`the send buffer did not drain for ${DELIVERY_MS} ms after the batch`);
      }
    }
  }

  /** Best effort: until the buffer is empty or `ms` passed. */
  async flush(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.#context.channel.bufferedAmount() > 0 && Date.now() < until) await this.#pause();
  }

  #pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, BUFFER_POLL_MS);
      this.#wake = done;
    });
  }
}
