import type { PeerCheck } from '../transfer/transfer-view';
import { encodeMessage } from './encode';
import { defaultFailure, type Failure } from './error-codes';
import type { Frame, Framing } from './frame';
import { classifyFrameFromSender } from './frame-classification';
import { AcceptedBatch, type AnnouncedFile } from './accepted-batch';
import {
  ABORT_REASON_FLUSH_MS,
  LIST_WAIT_MS,
  RECEIVER_FIRST_DATA_TIMEOUT_MS,
  RECEIVER_NO_PROGRESS_TIMEOUT_MS,
  RECEIVER_TEARDOWN_GRACE_MS,
} from './limits';
import type { Capability, IncomingMetadata, Outcome, SenderWireMessage } from './messages';
import { namedOutcome } from './named-outcome';
import type { GateStep, OfferGate, ReadyOffer } from './offer-gate';
import type { PeerCheckStep } from './peer-check-step';
import type { OpeningStep, PartOpening } from './part-opening';
import { explainIncompatible } from './peer-incompatible';
import type { ReceiverCaps } from './receiver-caps';
import { receiverExtensions } from './receiver-extensions';
import type { ReceiverPeerCheck } from './receiver-peer-check';
import type {
  ReceiverAction,
  ReceiverConfig,
  ReceiverEvent,
  ReceiverMachine,
  ReceiverState,
  ReceiverTimer,
} from './receiver-types';
import {
  badMetadata,
  digestMismatch,
  overrun,
  protocolBroken,
  shortFile,
  unwritable,
} from './receiver-refusals';
import type { Refusal } from './refusal';
import { keepsWhatArrived } from './resume-offset';
import { ArmedTimers } from './timer-actions';
import { versionRefusal } from './version-remedy';

export type * from './receiver-types';

/**
 * The receiving side of a batch, as the spec's per-file sequence (data-channel-protocol.md,
 * "Per-file sequence"): read the metadata, check versions, open a `.part`, ack, write each binary
 * frame, and on `end` commit or discard by the byte count. Files arrive in order; after the last
 * one a native receiver sends `received`. Ferry's extensions are the modules it composes:
 * capability agreement (receiver-caps.ts), the peer check (receiver-peer-check.ts), the file list
 * (received-file-list.ts), and free space, resume and text messages on the way from metadata to
 * ack (part-opening.ts); a sender that announced nothing meets none of them.
 */
export function createReceiver(config: ReceiverConfig): ReceiverMachine {
  return new Receiver(config);
}

type Receiving = Extract<ReceiverState, { phase: 'receiving' }>;
type AckFrom = Extract<OpeningStep, { kind: 'ack' }>;

class Receiver implements ReceiverMachine {
  readonly #config: ReceiverConfig;
  readonly #timers = new ArmedTimers<ReceiverTimer>();
  readonly #caps: ReceiverCaps;
  #peerRelease: { ver?: string } | undefined;
  readonly #check: ReceiverPeerCheck;
  readonly #batch = new AcceptedBatch();
  readonly #gate: OfferGate;
  readonly #parts: PartOpening;
  #state: ReceiverState = { phase: 'idle' };
  /** The first file, while the person is asked about it. */
  #pending: AnnouncedFile | undefined;
  /** Bytes of the batch this side has, resumed ones included: what progress shows. */
  #bytesDone = 0;
  /** Bytes that travelled in this batch: what the byte counter is told. */
  #bytesReceived = 0;
  /** Files committed on a digest. */
  #verifiedFiles = 0;
  /** The batch's files by index, once accepted: what a later failure names. */
  readonly #files: AnnouncedFile[] = [];

  constructor(config: ReceiverConfig) {
    this.#config = config;
    const extensions = receiverExtensions(config, this.#framing, this.#batch);
    ({ caps: this.#caps, check: this.#check, gate: this.#gate, parts: this.#parts } = extensions);
  }

  get state(): ReceiverState {
    return this.#state;
  }

  get agreed(): ReadonlySet<Capability> {
    return this.#caps.agreed;
  }

  get peerCheck(): PeerCheck | undefined {
    return this.#check.check;
  }

  get peerName(): string | undefined {
    return this.#caps.senderName;
  }

  get peerRelease(): { ver?: string } | undefined {
    return this.#peerRelease;
  }

  get rejoinSecret(): string | undefined {
    return this.#caps.rejoinSecret;
  }

  get peerPairShare(): string | undefined {
    return this.#caps.senderPairShare;
  }

  get #native(): boolean {
    return this.#config.surface === 'native';
  }

  /** Native receivers send every control frame as binary; a browser receiver sends its ack as text. */
  get #framing(): Framing {
    return this.#native ? 'binary' : 'text';
  }

  /** The first offer waits for the sender: the only time its list and peer check may arrive. */
  get #waiting(): boolean {
    return this.#state.phase === 'awaiting-sender';
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
        if (state.phase !== 'awaiting-answer' || !this.#pending) return [];
        if (event.resumable === false) this.#caps.withoutResume();
        if (event.checksFreeSpace !== undefined)
          this.#parts.checksFreeSpace = event.checksFreeSpace;
        return this.#accept(this.#pending);
      case 'free-space':
        return state.phase === 'checking-space' && state.index === event.index
          ? this.#opening(this.#parts.freeSpace(event))
          : [];
      case 'part-opened':
        return state.phase === 'opening' && state.index === event.index
          ? this.#opening(this.#parts.found(event.offset, event.prefix))
          : [];
      case 'verify-failed':
        return this.#refuse(digestMismatch(this.#pathOf(event.index)));
      case 'declined':
        if (state.phase !== 'awaiting-answer') return [];
        return event.unable === true
          ? this.#fail(defaultFailure('ERR_DECLINED'), 0)
          : this.#closeNamed(defaultFailure('ERR_DECLINED'), 'declined');
      case 'words-derived':
      case 'words-failed':
      case 'link-proved':
      case 'link-failed':
        return this.#step(this.#check.answer(event, this.#waiting));
      case 'bytes-written':
        return state.phase === 'receiving' ? this.#progressed() : [];
      case 'write-failed':
        return state.phase === 'receiving' || state.phase === 'opening'
          ? this.#refuse(unwritable(this.#pathOf(state.index), event.detail))
          : [];
      case 'timer-fired':
        return this.#timers.fired(event.timer) ? this.#onTimeout(event.timer) : [];
      case 'channel-closed':
        return this.#fail(defaultFailure('ERR_PEER_CLOSED'), undefined);
      case 'cancel':
        return this.#closeNamed(defaultFailure('ERR_CANCELLED'), 'cancelled');
    }
  }

  /**
   * The person's choice ends the batch. The spec has no message for it: a sender that announced
   * `outcome` is told which it was before the close, within the abort flush; any other sender
   * sees the spec's plain close (docs/protocol.md, "Named outcomes").
   */
  #closeNamed(failure: Failure, outcome: Outcome): ReceiverAction[] {
    const frame = namedOutcome(this.#caps.agreed, outcome, this.#framing);
    if (frame === undefined) return this.#fail(failure, 0);
    return this.#fail(failure, ABORT_REASON_FLUSH_MS, [{ type: 'send', frame }]);
  }

  /** After the batch only the teardown grace matters: close when it ends, unless the sender did. */
  #afterBatch(event: ReceiverEvent): ReceiverAction[] {
    // The last file's digest is checked as it is committed, after the batch completed here.
    if (event.type === 'verify-failed')
      return this.#refuse(digestMismatch(this.#pathOf(event.index)));
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
        return this.#broken(reading.problem);
      case 'refused': {
        const check = this.#check.unusable(reading);
        return check === undefined ? this.#refuse(badMetadata(reading.problem)) : this.#step(check);
      }
      case 'file-data':
        if (state.phase !== 'receiving') {
          return this.#broken('file data arrived before the file was acknowledged');
        }
        return state.awaitingStart
          ? this.#broken('file data arrived before the sender said where the file starts')
          : this.#onData(state, reading.bytes);
      case 'control':
        return this.#onMessage(reading.message);
    }
  }

  #onMessage(message: SenderWireMessage): ReceiverAction[] {
    const state = this.#state;
    const agreed = this.#caps.agreed;
    switch (message.type) {
      case 'metadata':
        return state.phase === 'idle' || state.phase === 'awaiting-metadata'
          ? this.#onMetadata(state.phase === 'idle' ? 0 : state.index, message)
          : this.#broken('a file description arrived before the previous file ended');
      case 'end':
        return state.phase === 'receiving' && !state.awaitingStart
          ? this.#onEnd(state)
          : this.#broken('an end marker arrived with no file open');
      case 'incompatible':
        return this.#fail(
          explainIncompatible(
            message,
            this.#config.local,
            this.#config.remedySurface,
            agreed.has('link'),
          ),
          0,
        );
      case 'ferry-caps':
        // Only before the first file: extensions are agreed once, for the whole batch.
        if (state.phase === 'idle' || (state.phase === 'awaiting-metadata' && state.index === 0)) {
          this.#caps.take(message);
          this.#check.committed(message.commit);
        }
        return [];
      case 'ferry-sas-reveal':
      case 'ferry-link-proof':
        return this.#step(this.#check.heard(message, this.#waiting));
      case 'ferry-list':
        return this.#waiting ? this.#gated(this.#gate.listed(message)) : [];
      case 'ferry-outcome':
        // A sender has nothing to decline: only its cancel is named.
        return agreed.has('outcome') && message.outcome === 'cancelled'
          ? this.#fail(defaultFailure('ERR_PEER_CANCELLED'), 0)
          : [];
      case 'ferry-start':
        return state.phase === 'receiving' && state.awaitingStart && state.id === message.id
          ? this.#onStart(state, message.offset)
          : [];
      case 'ferry-digest':
        if (state.phase !== 'awaiting-digest') return [];
        return state.id === message.id
          ? this.#finishFile(state.index, state.id, message.sha256)
          : this.#broken('a digest arrived for a different file');
      case 'ferry-alive':
        // Before `ferry-start` the sender may be hashing a long prefix: alive is progress then.
        return state.phase === 'receiving' && state.awaitingStart && agreed.has('reconnect')
          ? this.#progressed()
          : [];
    }
  }

  #onMetadata(index: number, metadata: IncomingMetadata): ReceiverAction[] {
    const { local, remedySurface } = this.#config;
    this.#peerRelease ??= metadata.ver === undefined ? {} : { ver: metadata.ver };
    const versions = versionRefusal(local, metadata, remedySurface);
    if (versions !== undefined) return this.#refuse(versions);
    const file = this.#batch.admit(index, metadata);
    if (typeof file === 'string') return this.#refuse(badMetadata(file));
    const unlisted = this.#gate.unlisted(index, file.path, metadata.fileSize);
    if (unlisted !== undefined) return this.#refuse(badMetadata(unlisted));
    const cleared = this.#timers.clear('first-data');
    if (index > 0) return [...cleared, ...this.#accept(file)];
    const first = this.#gate.first(file, metadata);
    switch (first.kind) {
      case 'refuse':
        return [...cleared, ...this.#refuse(first)];
      case 'accept':
        return [...cleared, ...this.#accept(file)];
      case 'ask':
        // A sender that can hear a named outcome learns so before anyone decides, so that its
        // person's cancel while this side asks is named too (docs/protocol.md, "Named outcomes").
        const early = first.early ? this.#caps.answer(true) : [];
        return [...cleared, ...early, ...this.#ask(first.ready)];
      case 'wait':
        // One early answer asks for the list and the reveal both.
        this.#state = { phase: 'awaiting-sender', index };
        return [...cleared, ...this.#caps.answer(true), this.#timers.set('list', LIST_WAIT_MS)];
    }
  }

  /** A peer-check step, as it bears on the first offer's wait for the sender. */
  #step(step: PeerCheckStep): ReceiverAction[] {
    return this.#gated(this.#gate.checked(step));
  }

  /** The wait for the sender goes on, ends in a refusal, or puts the offer to the person. */
  #gated(step: GateStep): ReceiverAction[] {
    if (step.kind === 'refuse') return [...step.actions, ...this.#refuse(step)];
    if (step.ready === undefined) return step.actions;
    const cleared = this.#timers.clear('list');
    const go = this.#config.askBeforeAccepting
      ? this.#ask(step.ready)
      : this.#accept(step.ready.first);
    return [...step.actions, ...cleared, ...go];
  }

  #ask({ first, offer }: ReadyOffer): ReceiverAction[] {
    this.#pending = first;
    this.#state = { phase: 'awaiting-answer', index: 0 };
    return [{ type: 'ask-accept', offer }];
  }

  #accept(file: AnnouncedFile): ReceiverAction[] {
    this.#pending = undefined;
    this.#files[file.index] = file;
    return this.#opening(this.#parts.accept(file));
  }

  /** The spec's open and ack, with what Ferry agreed on the way (part-opening.ts). */
  #opening(step: OpeningStep | undefined): ReceiverAction[] {
    if (step === undefined) return [];
    const { index } = step.file;
    switch (step.kind) {
      case 'wait':
        this.#state = { phase: step.phase, index };
        return [step.action, ...this.#progressed()];
      case 'ack':
        return [...(step.open === undefined ? [] : [step.open]), ...this.#acknowledge(step)];
      case 'refuse':
        return this.#refuse(step, step.keep);
    }
  }

  /**
   * The ack, preceded by this side's `ferry-caps` when the sender announced its own (only before
   * the first ack) and by `ferry-resume` when part of the file is already here.
   */
  #acknowledge({ file, offset, prefix }: AckFrom): ReceiverAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    const sends: ReceiverAction[] = this.#caps.beforeAck();
    if (offset > 0 && prefix !== undefined) {
      const resume = { type: 'ferry-resume', id: file.id, offset, prefix } as const;
      sends.push({ type: 'send', frame: encodeMessage(resume, this.#framing) });
    }
    const ack = encodeMessage({ type: 'ack', id: file.id, offset, pv, pvMin, ver }, this.#framing);
    sends.push({ type: 'send', frame: ack });
    this.#bytesDone += offset;
    const { index, id, path, fileSize } = file;
    const awaitingStart = offset > 0;
    this.#state = { phase: 'receiving', index, id, path, fileSize, written: offset, awaitingStart };
    return [...sends, ...this.#progressed()];
  }

  /** The sender's word on an offered resume: the offset agreed, or 0 when its digests disagree. */
  #onStart(state: Receiving, offset: number): ReceiverAction[] {
    if (offset === state.written) {
      this.#state = { ...state, awaitingStart: false };
      return [{ type: 'file-resumed', index: state.index, offset }, ...this.#progressed()];
    }
    if (offset !== 0) {
      return this.#broken(`the sender started at ${offset} where ${state.written} was offered`);
    }
    this.#bytesDone -= state.written;
    this.#state = { ...state, written: 0, awaitingStart: false };
    return [{ type: 'restart-part', index: state.index }, ...this.#progressed()];
  }

  #onData(state: Receiving, bytes: Uint8Array): ReceiverAction[] {
    const written = state.written + bytes.byteLength;
    if (written > state.fileSize) {
      const sizeAnnounced = this.#files[state.index]?.sizeAnnounced ?? false;
      return this.#refuse(overrun(state.path, state.fileSize, sizeAnnounced));
    }
    if (bytes.byteLength === 0) return [];
    this.#state = { ...state, written };
    this.#bytesDone += bytes.byteLength;
    this.#bytesReceived += bytes.byteLength;
    const { index, fileSize } = state;
    const { total, totalBytes } = this.#batch;
    const bytesDone = this.#bytesDone;
    return [
      { type: 'write', index, bytes },
      { type: 'progress', index, total, fileBytes: written, fileSize, bytesDone, totalBytes },
      ...this.#progressed(),
    ];
  }

  #onEnd(state: Receiving): ReceiverAction[] {
    if (state.written !== state.fileSize) {
      return this.#refuse(shortFile(state.path, state.written, state.fileSize));
    }
    if (!this.#caps.agreed.has('verify')) return this.#finishFile(state.index, state.id, undefined);
    const { index, id, path, written } = state;
    this.#state = { phase: 'awaiting-digest', index, id, path, written };
    return this.#progressed();
  }

  /**
   * Commits the file (on its digest, when one came) and moves on. A verified file is confirmed to
   * the sender once it has its final name; the driver reports `verify-failed` otherwise.
   */
  #finishFile(index: number, id: string, sha256: string | undefined): ReceiverAction[] {
    const actions: ReceiverAction[] = [];
    if (sha256 === undefined) actions.push({ type: 'commit', index });
    else {
      this.#verifiedFiles += 1;
      const verified = encodeMessage({ type: 'ferry-verified', id }, this.#framing);
      actions.push({ type: 'commit', index, sha256 }, { type: 'send', frame: verified });
    }
    const total = this.#batch.total;
    if (index + 1 < total) {
      this.#state = { phase: 'awaiting-metadata', index: index + 1 };
      return [...actions, ...this.#progressed()];
    }
    this.#state = { phase: 'done', files: total, bytes: this.#bytesReceived };
    if (this.#native) {
      actions.push({ type: 'send', frame: encodeMessage({ type: 'received' }, 'binary') });
    }
    const complete: ReceiverAction = { type: 'complete', files: total, bytes: this.#bytesReceived };
    if (this.#caps.agreed.has('verify')) complete.verified = this.#verifiedFiles === total;
    return [
      ...actions,
      ...this.#timers.clearAll(),
      complete,
      this.#timers.set('teardown', RECEIVER_TEARDOWN_GRACE_MS),
    ];
  }

  #pathOf(index: number): string {
    return this.#files[index]?.path ?? `file ${index + 1}`;
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
      case 'list':
        return this.#gated(this.#gate.overdue());
      case 'teardown':
        return [];
    }
  }

  /** A frame out of the per-file sequence. */
  #broken(problem: string): ReceiverAction[] {
    return this.#refuse(protocolBroken(problem));
  }

  /**
   * Tells the sender why, as binary like every frame a receiver sends. A native receiver then
   * closes after the flush; a browser receiver leaves the channel to the sender.
   */
  #refuse({ failure, reason }: Refusal, keep?: boolean): ReceiverAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    const frame = encodeMessage({ type: 'incompatible', reason, pv, pvMin, ver }, 'binary');
    const flushMs = this.#native ? ABORT_REASON_FLUSH_MS : undefined;
    return this.#fail(failure, flushMs, [{ type: 'send', frame }], keep);
  }

  /**
   * Discards the open file first, so a failure never leaves a part file behind, unless the file
   * can be resumed and the failure says nothing against what arrived (or `keep` says so).
   */
  #fail(
    reason: Failure,
    flushMs: number | undefined,
    sends: ReceiverAction[] = [],
    keep = this.#caps.agreed.has('resume') && keepsWhatArrived(reason.code),
  ): ReceiverAction[] {
    const state = this.#state;
    const open =
      state.phase === 'receiving' || state.phase === 'awaiting-digest' || state.phase === 'opening';
    const actions: ReceiverAction[] = open ? [{ type: 'discard', index: state.index, keep }] : [];
    this.#state = { phase: 'failed', ...reason };
    actions.push(...sends, ...this.#timers.clearAll(), { type: 'fail', ...reason });
    if (flushMs !== undefined) actions.push({ type: 'close', flushMs });
    return actions;
  }
}
