import { formatBytes } from '../format/format-bytes';
import { sanitizeRelativePath } from '../names/sanitize-path';
import type { PeerCheck } from '../transfer/transfer-view';
import { refusesLinkProof, refusesVerification } from './decode-control';
import { displayReason } from './display-reason';
import { encodeMessage } from './encode';
import { defaultFailure, ERROR_MESSAGES, type Failure } from './error-codes';
import type { Frame, Framing } from './frame';
import { classifyFrameFromSender } from './frame-classification';
import { noSpace, shortOfSpace, type FreeSpace } from './free-space-check';
import {
  ABORT_REASON_FLUSH_MS,
  LIST_WAIT_MS,
  RECEIVER_FIRST_DATA_TIMEOUT_MS,
  RECEIVER_NO_PROGRESS_TIMEOUT_MS,
  RECEIVER_TEARDOWN_GRACE_MS,
} from './limits';
import type { Capability, IncomingMetadata, Outcome, SenderWireMessage } from './messages';
import type { PeerCheckStep } from './peer-check-step';
import { explainIncompatible } from './peer-incompatible';
import { ReceivedFileList } from './received-file-list';
import { ReceiverCaps } from './receiver-caps';
import { ReceiverPeerCheck } from './receiver-peer-check';
import type {
  AnnouncedFile,
  Offer,
  ReceiverAction,
  ReceiverConfig,
  ReceiverEvent,
  ReceiverMachine,
  ReceiverState,
  ReceiverTimer,
} from './receiver-types';
import { keepsWhatArrived, offerableOffset } from './resume-offset';
import { isTextBatch } from './text-batch';
import { ArmedTimers } from './timer-actions';
import { advertisedRange, negotiateVersion, type PeerVersion } from './version-negotiation';
import { versionReasonForPeer, versionRemedy } from './version-remedy';

export type {
  ListedEntry,
  Offer,
  ReceiverAction,
  ReceiverConfig,
  ReceiverEvent,
  ReceiverMachine,
  ReceiverState,
  ReceiverTimer,
} from './receiver-types';

/**
 * The receiving side of a batch, as the spec's per-file sequence (data-channel-protocol.md,
 * "Per-file sequence"): read the metadata, check versions, open a `.part`, ack, write each binary
 * frame, and on `end` commit or discard by the byte count. Files arrive in order; after the last
 * one a native receiver sends `received`. Ferry's extensions are the modules it composes:
 * capability agreement (receiver-caps.ts), the peer check (receiver-peer-check.ts), the file list
 * (received-file-list.ts), free space (free-space-check.ts), resume (resume-offset.ts) and text
 * messages (text-batch.ts); a sender that announced nothing meets none of them.
 */
export function createReceiver(config: ReceiverConfig): ReceiverMachine {
  return new Receiver(config);
}

type Receiving = Extract<ReceiverState, { phase: 'receiving' }>;

class Receiver implements ReceiverMachine {
  readonly #config: ReceiverConfig;
  readonly #timers = new ArmedTimers<ReceiverTimer>();
  readonly #caps: ReceiverCaps;
  readonly #check: ReceiverPeerCheck;
  readonly #list = new ReceivedFileList();
  #state: ReceiverState = { phase: 'idle' };
  /** Both fixed by the batch's first metadata: what the batch is accepted at, and held to. */
  #total = 0;
  #totalBytes = 0;
  /** The sizes announced so far; a file without one counts as 0 (docs/protocol.md, "Accepted batch"). */
  #claimedBytes = 0;
  /** The first file, and its offer, while the sender or the person is awaited. */
  #pending: AnnouncedFile | undefined;
  #offer: Offer | undefined;
  /** The file whose free space is being read, and what was read, kept for a resume's own check. */
  #checking: AnnouncedFile | undefined;
  #free: FreeSpace | undefined;
  #checksFreeSpace: boolean;
  /** The file whose kept part is being looked for. */
  #opening: AnnouncedFile | undefined;
  #sizeAnnounced = true;
  /** Bytes of the batch this side has, resumed ones included: what progress shows. */
  #bytesDone = 0;
  /** Bytes that travelled in this batch: what the byte counter is told. */
  #bytesReceived = 0;
  #firstAckSent = false;
  /** Files committed on a digest, and files of this batch by index, for a later verify-failed. */
  #verifiedFiles = 0;
  readonly #paths: string[] = [];

  constructor(config: ReceiverConfig) {
    this.#config = config;
    this.#checksFreeSpace = config.checksFreeSpace ?? false;
    this.#caps = new ReceiverCaps({ ...config, framing: this.#framing });
    this.#check = new ReceiverPeerCheck({
      nonce: this.#caps.speaks('sas') ? config.sasNonce : undefined,
      framing: this.#framing,
      agreed: () => this.#caps.agreed,
    });
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

  get rejoinSecret(): string | undefined {
    return this.#caps.rejoinSecret;
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
        if (event.checksFreeSpace !== undefined) this.#checksFreeSpace = event.checksFreeSpace;
        return this.#accept(this.#pending);
      case 'free-space':
        return state.phase === 'checking-space' && state.index === event.index && this.#checking
          ? this.#onFreeSpace(this.#checking, event)
          : [];
      case 'part-opened':
        return state.phase === 'opening' && state.index === event.index && this.#opening
          ? this.#opened(this.#opening, event.offset, event.prefix)
          : [];
      case 'verify-failed':
        return this.#verifyFailed(event.index);
      case 'declined':
        if (state.phase !== 'awaiting-answer') return [];
        return event.unable === true
          ? this.#fail(defaultFailure('ERR_DECLINED'), 0)
          : this.#closeNamed(defaultFailure('ERR_DECLINED'), 'declined');
      case 'words-derived':
        return this.#step(
          this.#check.wordsDerived(event.words, event.revealedCommit, this.#waiting),
        );
      case 'words-failed':
        return this.#step(this.#check.wordsFailed(event.detail, this.#waiting));
      case 'link-proved':
        return this.#step(this.#check.linkProved(event.own, event.expected));
      case 'link-failed':
        return this.#step(this.#check.linkFailed(event.detail, this.#waiting));
      case 'bytes-written':
        return state.phase === 'receiving' ? this.#progressed() : [];
      case 'write-failed':
        if (state.phase === 'receiving') return this.#writeFailed(state.path, event.detail);
        return state.phase === 'opening' && this.#opening
          ? this.#writeFailed(this.#opening.path, event.detail)
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
    if (!this.#caps.agreed.has('outcome')) return this.#fail(failure, 0);
    const frame = encodeMessage({ type: 'ferry-outcome', outcome }, this.#framing);
    return this.#fail(failure, ABORT_REASON_FLUSH_MS, [{ type: 'send', frame }]);
  }

  /** After the batch only the teardown grace matters: close when it ends, unless the sender did. */
  #afterBatch(event: ReceiverEvent): ReceiverAction[] {
    // The last file's digest is checked as it is committed, after the batch completed here.
    if (event.type === 'verify-failed') return this.#verifyFailed(event.index);
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
        if (!refusesLinkProof(reading) && !refusesVerification(reading)) {
          return this.#refuse(reading.problem);
        }
        return this.#step(
          this.#check.unusable(
            refusesLinkProof(reading),
            `an unusable ${reading.type} arrived (${reading.problem})`,
          ),
        );
      case 'file-data':
        if (state.phase !== 'receiving') {
          return this.#protocolError('file data arrived before the file was acknowledged');
        }
        return state.awaitingStart
          ? this.#protocolError('file data arrived before the sender said where the file starts')
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
          : this.#protocolError('a file description arrived before the previous file ended');
      case 'end':
        return state.phase === 'receiving' && !state.awaitingStart
          ? this.#onEnd(state)
          : this.#protocolError('an end marker arrived with no file open');
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
        return this.#step(this.#check.reveal(message.nonce, this.#waiting));
      case 'ferry-link-proof':
        return this.#step(this.#check.linkProof(message.mac, this.#waiting));
      case 'ferry-list': {
        if (!this.#waiting || this.#list.done) return [];
        const problem = this.#list.take(message, this.#total);
        if (problem !== undefined) return this.#refuse(problem);
        return this.#list.done ? this.#askWhenReady() : [];
      }
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
          : this.#protocolError('a digest arrived for a different file');
      case 'ferry-alive':
        // Before `ferry-start` the sender may be hashing a long prefix: alive is progress then.
        return state.phase === 'receiving' && state.awaitingStart && agreed.has('reconnect')
          ? this.#progressed()
          : [];
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
    if (metadata.index !== index + 1) {
      return this.#refuse(
        `file ${metadata.index} of ${metadata.total} arrived where file ${index + 1} was expected`,
      );
    }
    if (index > 0 && metadata.total !== this.#total) {
      return this.#refuse(
        `file ${metadata.index} announces a batch of ${metadata.total} files, but ${this.#total} were accepted`,
      );
    }
    const path = sanitizeRelativePath(metadata.fileName);
    const sizeAnnounced = metadata.fileSize !== undefined;
    // No usable size reads as 0 on every surface, so any byte is an overrun: the spec lets a
    // browser keep what arrives unchecked, which would let a sender fill its memory or disk.
    const fileSize = metadata.fileSize ?? 0;
    if (index === 0) {
      this.#total = metadata.total;
      // Older senders announce a single file's batch as 0 bytes.
      this.#totalBytes = metadata.totalBytes === 0 ? fileSize : metadata.totalBytes;
    }
    const beyond = this.#beyondAccepted(index, fileSize);
    if (beyond !== undefined) return this.#refuse(beyond);
    const unlisted = this.#list.unlike(index, path, metadata.fileSize);
    if (unlisted !== undefined) return this.#refuse(unlisted);
    this.#claimedBytes += fileSize;
    const file: AnnouncedFile = { index, id: metadata.id, path, fileSize, sizeAnnounced };
    const cleared = this.#timers.clear('first-data');
    if (index > 0) return [...cleared, ...this.#accept(file)];
    const check = this.#check.atFirstFile(this.#config.holdsLinkSecret === true);
    if (check.kind === 'refuse') return [...cleared, ...this.#step(check)];
    const verifies = this.#caps.agreed.has('sas');
    if (!this.#config.askBeforeAccepting && !verifies) return [...cleared, ...this.#accept(file)];
    this.#pending = file;
    const { min, max } = advertisedRange(metadata);
    const sender: PeerVersion = { pv: max, pvMin: min };
    // The prompt prints the peer's own text, so it gets the care of a displayed reason.
    if (metadata.ver !== undefined) sender.ver = displayReason(metadata.ver);
    const offer: Offer = {
      fileName: path,
      fileSize,
      total: this.#total,
      totalBytes: this.#totalBytes,
      sender,
      ...(this.#isText(file) ? { text: true as const } : {}),
    };
    const listed = this.#caps.agreed.has('list');
    if (!listed && !verifies) {
      // A sender that can hear a named outcome learns so before anyone decides, so that its
      // person's cancel while this side asks is named too (docs/protocol.md, "Named outcomes").
      const early = this.#caps.agreed.has('outcome') ? this.#answerCaps(true) : [];
      return [...cleared, ...early, ...this.#ask(offer)];
    }
    // This side's caps go out now rather than before the ack, so the sender lists its files and
    // reveals its nonce before anyone decides (docs/protocol.md, "File list", "Verification
    // words"); one early answer serves both.
    this.#offer = offer;
    this.#list.expect(listed);
    this.#state = { phase: 'awaiting-sender', index };
    return [...cleared, ...this.#answerCaps(true), this.#timers.set('list', LIST_WAIT_MS)];
  }

  /** A peer-check step: a refusal aborts; a check that just became known lets the offer go on. */
  #step(step: PeerCheckStep): ReceiverAction[] {
    if (step.kind === 'refuse') return this.#abortWithReason(step.failure, step.reason);
    return step.settled ? [...step.actions, ...this.#askWhenReady()] : step.actions;
  }

  /**
   * Why file `index` cannot be taken: its announced size takes the batch past what was accepted.
   * A size that is not known counts as 0, on every surface: any byte of such a file is an overrun.
   */
  #beyondAccepted(index: number, fileSize: number): string | undefined {
    const accepted = this.#totalBytes;
    if (this.#claimedBytes + fileSize <= accepted) return undefined;
    const announces = `file ${index + 1} announces ${formatBytes(fileSize)}`;
    return index === 0
      ? `${announces}, more than the ${formatBytes(accepted)} of the whole batch`
      : `${announces}, which takes the batch past the ${formatBytes(accepted)} that were accepted`;
  }

  /**
   * The wait is over: the person is asked with what list there is, but a sender that committed
   * to a nonce or to the link's proof and has not delivered broke its word.
   */
  #senderOverdue(): ReceiverAction[] {
    this.#list.close();
    const check = this.#check.overdue();
    return check.kind === 'refuse' ? this.#step(check) : this.#askWhenReady();
  }

  /**
   * Once the list (when asked for) and the peer check are in: check the list against the batch,
   * then ask, or accept when nobody is asked.
   */
  #askWhenReady(): ReceiverAction[] {
    const offer = this.#offer;
    const first = this.#pending;
    if (offer === undefined || first === undefined) return [];
    if (!this.#list.done || this.#check.check === undefined) return [];
    const cleared = this.#timers.clear('list');
    const unfit =
      this.#list.settle(this.#totalBytes) ??
      this.#list.unlike(0, first.path, first.sizeAnnounced ? first.fileSize : undefined);
    if (unfit !== undefined) return this.#refuse(unfit);
    this.#offer = undefined;
    if (!this.#config.askBeforeAccepting) return [...cleared, ...this.#accept(first)];
    // Without a single name, the offer is the spec's: only the first name is known.
    const files = this.#list.entries;
    return [...cleared, ...this.#ask(files.length > 0 ? { ...offer, files } : offer)];
  }

  #ask(offer: Offer): ReceiverAction[] {
    this.#state = { phase: 'awaiting-answer', index: 0 };
    return [{ type: 'ask-accept', offer }];
  }

  #accept(file: AnnouncedFile): ReceiverAction[] {
    this.#pending = undefined;
    this.#sizeAnnounced = file.sizeAnnounced;
    this.#paths[file.index] = file.path;
    // A text message is held in memory: nothing of it goes where the free space was read.
    if (!this.#checksFreeSpace || this.#isText(file)) return this.#open(file);
    this.#checking = file;
    this.#state = { phase: 'checking-space', index: file.index };
    return [{ type: 'read-free-space', index: file.index }, ...this.#progressed()];
  }

  /** A file that may resume is judged once its kept part is found (`#opened`), on what it needs. */
  #onFreeSpace(
    file: AnnouncedFile,
    read: Extract<ReceiverEvent, { type: 'free-space' }>,
  ): ReceiverAction[] {
    const { freeBytes, reserveBytes = 0, folder } = read;
    this.#checking = undefined;
    this.#free =
      freeBytes === undefined ? undefined : { bytes: freeBytes, reserve: reserveBytes, folder };
    if (this.#resumes(file)) return this.#open(file);
    const short = this.#shortOfSpace(file, 0);
    return short === undefined ? this.#open(file) : this.#noSpace(short, false);
  }

  #shortOfSpace(file: AnnouncedFile, from: number): number | undefined {
    const batch = { totalBytes: this.#totalBytes, keptBytes: this.#config.keptBytes ?? 0 };
    return shortOfSpace(this.#free, batch, file, from);
  }

  /** Refuses what does not fit; a kept part stays for a later resume. */
  #noSpace(needed: number, keep: boolean): ReceiverAction[] {
    const { failure, reason } = noSpace(needed, this.#free);
    return this.#abortWithReason(failure, reason, keep);
  }

  #resumes(file: AnnouncedFile): boolean {
    return this.#caps.agreed.has('resume') && file.fileSize > 0 && !this.#isText(file);
  }

  #isText(file: AnnouncedFile): boolean {
    return isTextBatch(this.#caps.textOffered, this.#total, file);
  }

  #open(file: AnnouncedFile): ReceiverAction[] {
    const open = {
      type: 'open-part',
      index: file.index,
      path: file.path,
      fileSize: file.fileSize,
      ...(this.#isText(file) ? { text: true as const } : {}),
    } as const;
    // Only a file with bytes to resume is looked for; the driver answers with part-opened.
    if (this.#resumes(file)) {
      this.#opening = file;
      this.#state = { phase: 'opening', index: file.index };
      return [{ ...open, resume: { senderFileId: file.id } }, ...this.#progressed()];
    }
    return [open, ...this.#acknowledge(file, 0, undefined)];
  }

  /** What the driver found of the file; anything it could not vouch for starts at 0. */
  #opened(file: AnnouncedFile, offset: number, prefix: string | undefined): ReceiverAction[] {
    this.#opening = undefined;
    const usable = offerableOffset(offset, prefix, file.fileSize);
    const from = usable ? offset : 0;
    // What is still needed once the kept part is counted; the part stays if it is refused.
    const short = this.#shortOfSpace(file, from);
    if (short !== undefined) return this.#noSpace(short, from > 0);
    return usable ? this.#acknowledge(file, offset, prefix) : this.#acknowledge(file, 0, undefined);
  }

  /**
   * The ack, preceded by this side's `ferry-caps` when the sender announced its own (only before
   * the first ack) and by `ferry-resume` when part of the file is already here.
   */
  #acknowledge(file: AnnouncedFile, offset: number, prefix: string | undefined): ReceiverAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    const sends: ReceiverAction[] = this.#firstAckSent ? [] : this.#answerCaps(false);
    this.#firstAckSent = true;
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

  #answerCaps(early: boolean): ReceiverAction[] {
    const frame = this.#caps.answer();
    if (frame === undefined) return [];
    return [early ? { type: 'send', frame, early } : { type: 'send', frame }];
  }

  /** The sender's word on an offered resume: the offset agreed, or 0 when its digests disagree. */
  #onStart(state: Receiving, offset: number): ReceiverAction[] {
    if (offset === state.written) {
      this.#state = { ...state, awaitingStart: false };
      return [{ type: 'file-resumed', index: state.index, offset }, ...this.#progressed()];
    }
    if (offset !== 0) {
      return this.#protocolError(
        `the sender started at ${offset} where ${state.written} was offered`,
      );
    }
    this.#bytesDone -= state.written;
    this.#state = { ...state, written: 0, awaitingStart: false };
    return [{ type: 'restart-part', index: state.index }, ...this.#progressed()];
  }

  #onData(state: Receiving, bytes: Uint8Array): ReceiverAction[] {
    const written = state.written + bytes.byteLength;
    if (written > state.fileSize) return this.#overrun(state);
    if (bytes.byteLength === 0) return [];
    this.#state = { ...state, written };
    this.#bytesDone += bytes.byteLength;
    this.#bytesReceived += bytes.byteLength;
    const { index, fileSize } = state;
    const [total, bytesDone, totalBytes] = [this.#total, this.#bytesDone, this.#totalBytes];
    return [
      { type: 'write', index, bytes },
      { type: 'progress', index, total, fileBytes: written, fileSize, bytesDone, totalBytes },
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
    if (state.written !== state.fileSize) {
      const reason = `${state.path} was discarded: ${state.written} of ${state.fileSize} bytes arrived`;
      return this.#abortWithReason({ code: 'ERR_SIZE_MISMATCH', message: reason }, reason);
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
    const total = this.#total;
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

  #verifyFailed(index: number): ReceiverAction[] {
    const path = this.#paths[index] ?? `file ${index + 1}`;
    const reason = `${path} was discarded: what arrived did not match the digest your device sent`;
    return this.#abortWithReason({ code: 'ERR_VERIFY_FAILED', message: reason }, reason);
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
        return this.#senderOverdue();
      case 'teardown':
        return [];
    }
  }

  #writeFailed(path: string, detail: string): ReceiverAction[] {
    return this.#abortWithReason(
      { code: 'ERR_DISK', message: `${path} could not be written (${detail})` },
      `${path} was discarded: the receiving device could not write it`,
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
  #abortWithReason(local: Failure, reason: string, keep?: boolean): ReceiverAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    const frame = encodeMessage({ type: 'incompatible', reason, pv, pvMin, ver }, 'binary');
    const flushMs = this.#native ? ABORT_REASON_FLUSH_MS : undefined;
    return this.#fail(local, flushMs, [{ type: 'send', frame }], keep);
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
