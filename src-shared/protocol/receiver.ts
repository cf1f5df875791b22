import { sanitizeRelativePath } from '../names/sanitize-path';
import { displayReason } from './display-reason';
import { encodeMessage } from './encode';
import { defaultFailure, ERROR_MESSAGES, type Failure } from './error-codes';
import type { Frame } from './frame';
import { classifyFrameFromSender, type Surface } from './frame-classification';
import {
  ABORT_REASON_FLUSH_MS,
  RECEIVER_FIRST_DATA_TIMEOUT_MS,
  RECEIVER_NO_PROGRESS_TIMEOUT_MS,
  RECEIVER_TEARDOWN_GRACE_MS,
} from './limits';
import type { IncomingMetadata, SenderMessage } from './messages';
import { explainIncompatible } from './peer-incompatible';
import { ArmedTimers, type TimerAction } from './timer-actions';
import { advertisedRange, negotiateVersion, type PeerVersion } from './version-negotiation';
import { versionReasonForPeer, versionRemedy, type RemedySurface } from './version-remedy';

export interface ReceiverConfig {
  surface: Surface;
  local: PeerVersion;
  remedySurface: RemedySurface;
  /** Ask the person before acknowledging the batch's first file. */
  askBeforeAccepting: boolean;
}

export type ReceiverTimer = 'first-data' | 'no-progress' | 'teardown';

/** What the person is asked to accept: the batch as its first metadata describes it. */
export interface Offer {
  /** The first file's sanitized relative path. */
  fileName: string;
  /** Null when the sender announced no usable size. */
  fileSize: number | null;
  total: number;
  totalBytes: number;
  sender: PeerVersion;
}

export type ReceiverEvent =
  | { type: 'channel-open' }
  | { type: 'frame'; frame: Frame }
  | { type: 'accepted' }
  | { type: 'declined' }
  /** The disk confirmed a write; it counts as progress for the no-progress timer. */
  | { type: 'bytes-written'; bytes: number }
  | { type: 'write-failed'; detail: string }
  | { type: 'timer-fired'; timer: ReceiverTimer }
  | { type: 'channel-closed' }
  | { type: 'cancel' };

/** `index` is the file's 0-based position in the batch (the wire's metadata index minus one). */
export type ReceiverAction =
  | { type: 'send'; frame: Frame }
  | { type: 'ask-accept'; offer: Offer }
  /** `path` is sanitized, relative and `/`-separated; `fileSize` null when none was announced. */
  | { type: 'open-part'; index: number; path: string; fileSize: number | null }
  | { type: 'write'; index: number; bytes: Uint8Array }
  | { type: 'commit'; index: number }
  | { type: 'discard'; index: number }
  | TimerAction<ReceiverTimer>
  | {
      type: 'progress';
      index: number;
      total: number;
      fileBytes: number;
      fileSize: number | null;
      bytesDone: number;
      totalBytes: number;
    }
  | { type: 'complete'; files: number; bytes: number }
  | ({ type: 'fail' } & Failure)
  | { type: 'close'; flushMs: number };

export type ReceiverState =
  | { phase: 'idle' }
  | { phase: 'awaiting-metadata'; index: number }
  | { phase: 'awaiting-answer'; index: number }
  | { phase: 'receiving'; index: number; path: string; fileSize: number | null; written: number }
  | { phase: 'done'; files: number; bytes: number }
  | ({ phase: 'failed' } & Failure);

export interface ReceiverMachine {
  readonly state: ReceiverState;
  handle(event: ReceiverEvent): ReceiverAction[];
}

/**
 * The receiving side of a batch. Per file: read the metadata, check versions, open a `.part`,
 * ack, write each binary frame, and on `end` commit or discard by the byte count. Files arrive in
 * order; after the last one a native receiver sends `received`.
 */
export function createReceiver(config: ReceiverConfig): ReceiverMachine {
  return new Receiver(config);
}

interface AnnouncedFile {
  index: number;
  id: string;
  path: string;
  fileSize: number | null;
  /** False when a native receiver read a missing size as 0. */
  sizeAnnounced: boolean;
}

type Receiving = Extract<ReceiverState, { phase: 'receiving' }>;

class Receiver implements ReceiverMachine {
  readonly #config: ReceiverConfig;
  readonly #timers = new ArmedTimers<ReceiverTimer>();
  #state: ReceiverState = { phase: 'idle' };
  /** Both fixed by the batch's first metadata. */
  #total = 0;
  #totalBytes = 0;
  #pending: AnnouncedFile | undefined;
  #sizeAnnounced = true;
  #bytesDone = 0;

  constructor(config: ReceiverConfig) {
    this.#config = config;
  }

  get state(): ReceiverState {
    return this.#state;
  }

  get #native(): boolean {
    return this.#config.surface === 'native';
  }

  handle(event: ReceiverEvent): ReceiverAction[] {
    const state = this.#state;
    if (state.phase === 'failed') return [];
    if (state.phase === 'done') return this.#afterBatch(event);
    switch (event.type) {
      case 'channel-open':
        if (state.phase !== 'idle') return [];
        this.#state = { phase: 'awaiting-metadata', index: 0 };
        return this.#native ? [this.#timers.set('first-data', RECEIVER_FIRST_DATA_TIMEOUT_MS)] : [];
      case 'frame':
        return this.#onFrame(event.frame);
      case 'accepted':
        return state.phase === 'awaiting-answer' && this.#pending
          ? this.#accept(this.#pending)
          : [];
      case 'declined':
        // A decline closes without a word: the spec has no message for it.
        return state.phase === 'awaiting-answer'
          ? this.#fail(defaultFailure('ERR_DECLINED'), 0)
          : [];
      case 'bytes-written':
        return state.phase === 'receiving' ? this.#progressed() : [];
      case 'write-failed':
        return state.phase === 'receiving' ? this.#writeFailed(state, event.detail) : [];
      case 'timer-fired':
        return this.#timers.fired(event.timer) ? this.#onTimeout(event.timer) : [];
      case 'channel-closed':
        return this.#fail(defaultFailure('ERR_PEER_CLOSED'), undefined);
      case 'cancel':
        return this.#fail(defaultFailure('ERR_CANCELLED'), 0);
    }
  }

  /** After the batch only the teardown grace matters: close when it ends, unless the sender did. */
  #afterBatch(event: ReceiverEvent): ReceiverAction[] {
    if (event.type === 'timer-fired' && this.#timers.fired(event.timer)) {
      return [{ type: 'close', flushMs: 0 }];
    }
    return event.type === 'channel-closed' ? this.#timers.clearAll() : [];
  }

  #onFrame(frame: Frame): ReceiverAction[] {
    const state = this.#state;
    const reading = classifyFrameFromSender(frame, this.#config.surface);
    switch (reading.kind) {
      case 'ignored':
        return [];
      case 'protocol-error':
        return this.#protocolError(reading.problem);
      case 'refused':
        return this.#refuse(reading.problem);
      case 'file-data':
        return state.phase === 'receiving'
          ? this.#onData(state, reading.bytes)
          : this.#protocolError('file data arrived before the file was acknowledged');
      case 'control':
        return this.#onMessage(reading.message);
    }
  }

  #onMessage(message: SenderMessage): ReceiverAction[] {
    const state = this.#state;
    switch (message.type) {
      case 'metadata':
        return state.phase === 'idle' || state.phase === 'awaiting-metadata'
          ? this.#onMetadata(state.phase === 'idle' ? 0 : state.index, message)
          : this.#protocolError('a file description arrived before the previous file ended');
      case 'end':
        return state.phase === 'receiving'
          ? this.#onEnd(state)
          : this.#protocolError('an end marker arrived with no file open');
      case 'incompatible':
        return this.#fail(
          explainIncompatible(message, this.#config.local, this.#config.remedySurface),
          0,
        );
    }
  }

  #onMetadata(index: number, metadata: IncomingMetadata): ReceiverAction[] {
    const { local, remedySurface } = this.#config;
    if (!negotiateVersion(local, metadata).compatible) {
      return this.#abortWithReason(
        {
          code: 'ERR_INCOMPATIBLE_VERSION',
          message: versionRemedy(local, metadata, remedySurface),
        },
        versionReasonForPeer(local, metadata),
      );
    }
    if (metadata.index !== index + 1 || (index > 0 && metadata.total !== this.#total)) {
      return this.#refuse(
        `file ${metadata.index} of ${metadata.total} arrived where file ${index + 1} was expected`,
      );
    }
    const path = sanitizeRelativePath(metadata.fileName);
    const sizeAnnounced = metadata.fileSize !== undefined;
    // No usable size: a browser keeps what arrives unchecked, a native receiver reads it as 0.
    const fileSize = metadata.fileSize ?? (this.#native ? 0 : null);
    if (index === 0) {
      this.#total = metadata.total;
      // Older senders announce a single file's batch as 0 bytes.
      this.#totalBytes = metadata.totalBytes === 0 ? (metadata.fileSize ?? 0) : metadata.totalBytes;
    }
    const file: AnnouncedFile = { index, id: metadata.id, path, fileSize, sizeAnnounced };
    const cleared = this.#timers.clear('first-data');
    if (index > 0 || !this.#config.askBeforeAccepting) return [...cleared, ...this.#accept(file)];
    this.#pending = file;
    this.#state = { phase: 'awaiting-answer', index };
    const { min, max } = advertisedRange(metadata);
    const sender: PeerVersion = { pv: max, pvMin: min };
    // The prompt prints the peer's own text, so it gets the care of a displayed reason.
    if (metadata.ver !== undefined) sender.ver = displayReason(metadata.ver);
    return [
      ...cleared,
      {
        type: 'ask-accept',
        offer: {
          fileName: path,
          fileSize,
          total: this.#total,
          totalBytes: this.#totalBytes,
          sender,
        },
      },
    ];
  }

  #accept(file: AnnouncedFile): ReceiverAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    this.#pending = undefined;
    this.#sizeAnnounced = file.sizeAnnounced;
    this.#state = {
      phase: 'receiving',
      index: file.index,
      path: file.path,
      fileSize: file.fileSize,
      written: 0,
    };
    // Native receivers send every control frame as binary; a browser receiver sends its ack as text.
    const ack = encodeMessage(
      { type: 'ack', id: file.id, offset: 0, pv, pvMin, ver },
      this.#native ? 'binary' : 'text',
    );
    return [
      { type: 'open-part', index: file.index, path: file.path, fileSize: file.fileSize },
      { type: 'send', frame: ack },
      ...this.#progressed(),
    ];
  }

  #onData(state: Receiving, bytes: Uint8Array): ReceiverAction[] {
    const written = state.written + bytes.byteLength;
    if (state.fileSize !== null && written > state.fileSize) return this.#overrun(state);
    if (bytes.byteLength === 0) return [];
    this.#state = { ...state, written };
    this.#bytesDone += bytes.byteLength;
    return [
      { type: 'write', index: state.index, bytes },
      {
        type: 'progress',
        index: state.index,
        total: this.#total,
        fileBytes: written,
        fileSize: state.fileSize,
        bytesDone: this.#bytesDone,
        totalBytes: this.#totalBytes,
      },
      ...this.#progressed(),
    ];
  }

  /** Overrun is caught on the frame that crosses the announced size; that frame is never written. */
  #overrun(state: Receiving): ReceiverAction[] {
    if (!this.#sizeAnnounced) {
      return this.#abortWithReason(
        {
          code: 'ERR_SIZE_MISMATCH',
          message: `${state.path} was discarded: the sender announced no usable size`,
        },
        `${state.path} was discarded: your device announced no usable size for it`,
      );
    }
    const reason = `${state.path} was discarded: more than the announced ${state.fileSize} bytes arrived`;
    return this.#abortWithReason({ code: 'ERR_OVERRUN', message: reason }, reason);
  }

  #onEnd(state: Receiving): ReceiverAction[] {
    if (state.fileSize !== null && state.written !== state.fileSize) {
      const reason = `${state.path} was discarded: ${state.written} of ${state.fileSize} bytes arrived`;
      return this.#abortWithReason({ code: 'ERR_SIZE_MISMATCH', message: reason }, reason);
    }
    const commit: ReceiverAction = { type: 'commit', index: state.index };
    const total = this.#total;
    if (state.index + 1 < total) {
      this.#state = { phase: 'awaiting-metadata', index: state.index + 1 };
      return [commit, ...this.#progressed()];
    }
    this.#state = { phase: 'done', files: total, bytes: this.#bytesDone };
    const actions: ReceiverAction[] = [commit];
    if (this.#native) {
      actions.push({ type: 'send', frame: encodeMessage({ type: 'received' }, 'binary') });
    }
    return [
      ...actions,
      ...this.#timers.clearAll(),
      { type: 'complete', files: total, bytes: this.#bytesDone },
      this.#timers.set('teardown', RECEIVER_TEARDOWN_GRACE_MS),
    ];
  }

  /** Native receivers time the gap since the last sign of life; browsers keep no such timer. */
  #progressed(): ReceiverAction[] {
    return this.#native ? [this.#timers.set('no-progress', RECEIVER_NO_PROGRESS_TIMEOUT_MS)] : [];
  }

  #onTimeout(timer: ReceiverTimer): ReceiverAction[] {
    switch (timer) {
      case 'first-data':
        return this.#fail(defaultFailure('ERR_NO_DATA'), 0);
      case 'no-progress':
        return this.#fail(defaultFailure('ERR_STALLED'), 0);
      case 'teardown':
        return [];
    }
  }

  #writeFailed(state: Receiving, detail: string): ReceiverAction[] {
    return this.#abortWithReason(
      { code: 'ERR_DISK', message: `${state.path} could not be written (${detail})` },
      `${state.path} was discarded: the receiving device could not write it`,
    );
  }

  #refuse(problem: string): ReceiverAction[] {
    const reason = `${ERROR_MESSAGES.ERR_BAD_METADATA}: ${problem}`;
    return this.#abortWithReason({ code: 'ERR_BAD_METADATA', message: reason }, reason);
  }

  #protocolError(problem: string): ReceiverAction[] {
    return this.#abortWithReason(
      { code: 'ERR_PROTOCOL', message: `${ERROR_MESSAGES.ERR_PROTOCOL}: ${problem}` },
      `the receiving device stopped the transfer: ${problem}`,
    );
  }

  /**
   * Tells the sender why, as binary like every frame a receiver sends. A native receiver then
   * closes after the flush; a browser receiver leaves the channel to the sender.
   */
  #abortWithReason(local: Failure, reason: string): ReceiverAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    const frame = encodeMessage({ type: 'incompatible', reason, pv, pvMin, ver }, 'binary');
    return this.#fail(local, this.#native ? ABORT_REASON_FLUSH_MS : undefined, [
      { type: 'send', frame },
    ]);
  }

  /** Discards the open file first, so a failure never leaves a part file behind. */
  #fail(
    reason: Failure,
    flushMs: number | undefined,
    sends: ReceiverAction[] = [],
  ): ReceiverAction[] {
    const state = this.#state;
    const actions: ReceiverAction[] =
      state.phase === 'receiving' ? [{ type: 'discard', index: state.index }] : [];
    this.#state = { phase: 'failed', ...reason };
    actions.push(...sends, ...this.#timers.clearAll(), { type: 'fail', ...reason });
    if (flushMs !== undefined) actions.push({ type: 'close', flushMs });
    return actions;
  }
}
