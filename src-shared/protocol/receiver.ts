import { formatBytes } from '../format/format-bytes';
import { sanitizeRelativePath } from '../names/sanitize-path';
import type { PeerCheck } from '../transfer/transfer-view';
import { refusesLinkProof, refusesVerification } from './decode-control';
import { displayReason } from './display-reason';
import { encodeMessage } from './encode';
import { defaultFailure, ERROR_MESSAGES, type Failure } from './error-codes';
import type { Frame } from './frame';
import { classifyFrameFromSender, type Surface } from './frame-classification';
import {
  ABORT_REASON_FLUSH_MS,
  LIST_MAX_FILES,
  LIST_WAIT_MS,
  RECEIVER_FIRST_DATA_TIMEOUT_MS,
  RECEIVER_NO_PROGRESS_TIMEOUT_MS,
  RECEIVER_TEARDOWN_GRACE_MS,
  TEXT_MESSAGE_FILE_NAME,
  TEXT_MESSAGE_MAX_BYTES,
  VERIFY_BLOCK_BYTES,
} from './limits';
import type {
  Capability,
  IncomingMetadata,
  ListMessage,
  Outcome,
  SenderWireMessage,
} from './messages';
import {
  explainIncompatible,
  LINK_REFUSED_REASON,
  LINK_UNPROVEN_PROBLEM,
  LINK_UNPROVEN_REASON,
} from './peer-incompatible';
import { ArmedTimers, type TimerAction } from './timer-actions';
import { advertisedRange, negotiateVersion, type PeerVersion } from './version-negotiation';
import { versionReasonForPeer, versionRemedy, type RemedySurface } from './version-remedy';
import { sameSecret } from '../verify/same-secret';

export interface ReceiverConfig {
  surface: Surface;
  /** Ferry's extensions this side speaks; announced only in answer to a sender's `ferry-caps`. */
  caps?: readonly Capability[];
  local: PeerVersion;
  remedySurface: RemedySurface;
  /** Ask the person before acknowledging the batch's first file. */
  askBeforeAccepting: boolean;
  /**
   * The driver answers each `read-free-space` with `free-space`, and the batch and each file are
   * refused when they need more than is free (docs/protocol.md, "Free space").
   */
  checksFreeSpace?: boolean;
  /** Bytes of this batch already here from before a lost link: the batch needs only the rest. */
  keptBytes?: number;
  /**
   * This side's fresh nonce for `sas`, 64 lowercase hex; without one `sas` is not announced
   * (docs/protocol.md, "Verification words").
   */
  sasNonce?: string;
  /**
   * This side holds the secret of the link it was opened from: `link` is announced beside `sas`,
   * and a sender that does not prove it is refused (docs/protocol.md, "Secret link").
   */
  holdsLinkSecret?: boolean;
  /** This installation's name, announced beside `device` (docs/protocol.md, "Remembered devices"). */
  deviceName?: string;
}

/**
 * `list`: waiting for the sender's file list and its verification reveal before asking the
 * person (or, when nobody is asked, before accepting).
 */
export type ReceiverTimer = 'first-data' | 'no-progress' | 'teardown' | 'list';

/** A file of the sender's list: its sanitized relative path and its size. */
export interface ListedEntry {
  path: string;
  size: number;
}

/** What the person is asked to accept: the batch as its first metadata describes it. */
export interface Offer {
  /** The first file's sanitized relative path. */
  fileName: string;
  /** 0 when the sender announced no usable size (docs/protocol.md, "Per-file sequence"). */
  fileSize: number;
  total: number;
  totalBytes: number;
  sender: PeerVersion;
  /** The batch's files in order, when the sender listed them; the rule for each later metadata. */
  files?: ListedEntry[];
  /** The batch is a text message, taken into memory and shown (docs/protocol.md, "Text messages"). */
  text?: true;
}

export type ReceiverEvent =
  | { type: 'channel-open' }
  | { type: 'frame'; frame: Frame }
  /**
   * The person accepted. `resumable: false`: where it goes cannot keep a partial file (a browser's
   * downloads), so resume and reconnect are not announced for this batch. `checksFreeSpace`:
   * where it goes can tell its free space (see ReceiverConfig), whatever the config said.
   */
  | { type: 'accepted'; resumable?: boolean; checksFreeSpace?: boolean }
  /** The file is open; `offset` bytes of it were already here, `prefix` their digest (resume). */
  | { type: 'part-opened'; index: number; offset: number; prefix?: string }
  /** The file's bytes did not match the sender's digest; the driver has discarded it. */
  | { type: 'verify-failed'; index: number }
  /**
   * The person declined. `unable`: nobody chose; this side could not take the batch (its target
   * failed), so the sender is not told it was declined.
   */
  | { type: 'declined'; unable?: boolean }
  /**
   * The answer to `derive-words`: the verification words, and the SHA-256 (hex) of the nonce the
   * sender revealed, which must be the commitment it announced.
   */
  | { type: 'words-derived'; words: string; revealedCommit: string }
  /** `derive-words` could not be carried out (the runtime's digest failed). */
  | { type: 'words-failed'; detail: string }
  /** The answer to `prove-link`: this side's proof, and the one the sender must have sent. */
  | { type: 'link-proved'; own: string; expected: string }
  /** `prove-link` could not be carried out (the runtime's HMAC failed). */
  | { type: 'link-failed'; detail: string }
  /**
   * What `read-free-space` found: undefined when the target cannot tell. `reserveBytes` of it
   * must stay free (src-shared/protocol/free-space-reserve.ts); none when absent.
   */
  | {
      type: 'free-space';
      index: number;
      freeBytes: number | undefined;
      reserveBytes?: number;
      folder?: string;
    }
  /** The disk confirmed a write; it counts as progress for the no-progress timer. */
  | { type: 'bytes-written'; bytes: number }
  | { type: 'write-failed'; detail: string }
  | { type: 'timer-fired'; timer: ReceiverTimer }
  | { type: 'channel-closed' }
  | { type: 'cancel' };

/** `index` is the file's 0-based position in the batch (the wire's metadata index minus one). */
export type ReceiverAction =
  /**
   * `early`: sent before the batch is accepted (this side's `ferry-caps` asking for the file
   * list), so it does not yet mean the transfer has started.
   */
  | { type: 'send'; frame: Frame; early?: boolean }
  | { type: 'ask-accept'; offer: Offer }
  /**
   * Derive the verification words from both nonces and the connection's fingerprints
   * (src-shared/verify/sas.ts), and hash the sender's nonce; answer with `words-derived`.
   */
  | { type: 'derive-words'; senderNonce: string; receiverNonce: string }
  /**
   * Compute both link proofs from the secret, both nonces and the connection's fingerprints
   * (src-shared/verify/link-secret.ts); answer with `link-proved`.
   */
  | { type: 'prove-link'; senderNonce: string; receiverNonce: string }
  /** Read how much may still be written where the batch goes; answer with `free-space`. */
  | { type: 'read-free-space'; index: number }
  /**
   * `path` is sanitized, relative and `/`-separated; `fileSize` 0 when none was announced.
   * `resume`: look for what a earlier try left of this file (answer with `part-opened`).
   */
  | {
      type: 'open-part';
      index: number;
      path: string;
      fileSize: number;
      resume?: { senderFileId: string };
      /** A text message: held in memory and shown, never saved (docs/protocol.md, "Text messages"). */
      text?: true;
    }
  | { type: 'write'; index: number; bytes: Uint8Array }
  /** The sender refused the resume: the file starts over from its first byte. */
  | { type: 'restart-part'; index: number }
  /** `sha256`: give the file its final name only if what arrived has this digest. */
  | { type: 'commit'; index: number; sha256?: string }
  /** `keep`: leave what arrived, and its sidecar, for a later resume. */
  | { type: 'discard'; index: number; keep: boolean }
  /** `offset` bytes of the file were already here and need not travel again. */
  | { type: 'file-resumed'; index: number; offset: number }
  | TimerAction<ReceiverTimer>
  | {
      type: 'progress';
      index: number;
      total: number;
      fileBytes: number;
      fileSize: number;
      bytesDone: number;
      totalBytes: number;
    }
  /** `bytes`: what travelled in this batch; `verified` when every file's digest was checked. */
  | { type: 'complete'; files: number; bytes: number; verified?: boolean }
  | ({ type: 'fail' } & Failure)
  | { type: 'close'; flushMs: number };

export type ReceiverState =
  | { phase: 'idle' }
  | { phase: 'awaiting-metadata'; index: number }
  /**
   * The sender lists its files and reveals its verification nonce before the person is asked
   * (docs/protocol.md, "File list", "Verification words").
   */
  | { phase: 'awaiting-sender'; index: number }
  | { phase: 'awaiting-answer'; index: number }
  | { phase: 'checking-space'; index: number }
  | { phase: 'opening'; index: number }
  | {
      phase: 'receiving';
      index: number;
      id: string;
      path: string;
      fileSize: number;
      written: number;
      /** A resume was offered: no byte may come before the sender's `ferry-start`. */
      awaitingStart: boolean;
    }
  | { phase: 'awaiting-digest'; index: number; id: string; path: string; written: number }
  | { phase: 'done'; files: number; bytes: number }
  | ({ phase: 'failed' } & Failure);

export interface ReceiverMachine {
  readonly state: ReceiverState;
  /** The extensions both sides announced; empty until the sender's `ferry-caps` arrives. */
  readonly agreed: ReadonlySet<Capability>;
  /**
   * What this side knows of the other device, from the batch's first metadata on: the
   * verification words, or that it cannot show any. Always known before the person is asked.
   */
  readonly peerCheck: PeerCheck | undefined;
  /** The name the sender announced beside `device`, once both named it (cleaned). */
  readonly peerName: string | undefined;
  /** The sender's secret for meeting again after a lost link, once `reconnect` was agreed. */
  readonly rejoinSecret: string | undefined;
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
  fileSize: number;
  /** False when the sender announced no usable size, read as 0. */
  sizeAnnounced: boolean;
}

type Receiving = Extract<ReceiverState, { phase: 'receiving' }>;

/**
 * Failures that say nothing against what arrived so far: the link went, or a person stopped. A
 * resumable file keeps its `.part` then, for the next try (docs/protocol.md, "Resume").
 */
const KEEPS_WHAT_ARRIVED = new Set([
  'ERR_PEER_CLOSED',
  'ERR_PEER_CANCELLED',
  'ERR_CANCELLED',
  'ERR_STALLED',
]);

class Receiver implements ReceiverMachine {
  readonly #config: ReceiverConfig;
  readonly #timers = new ArmedTimers<ReceiverTimer>();
  #state: ReceiverState = { phase: 'idle' };
  /** Both fixed by the batch's first metadata: what the batch is accepted at, and held to. */
  #total = 0;
  #totalBytes = 0;
  /** The sizes announced so far; a file without one counts as 0 (docs/protocol.md, "Accepted batch"). */
  #claimedBytes = 0;
  #pending: AnnouncedFile | undefined;
  /** The offer of the first metadata, while the sender's file list is awaited. */
  #offer: Offer | undefined;
  /** The sender's list as it arrives, then the list the person was shown: each file must match. */
  #listing: ListedEntry[] = [];
  #listed: readonly ListedEntry[] = [];
  /** The free-space reading for the file being opened, kept for a resume's own check. */
  #free: { bytes: number; reserve: number; folder: string | undefined } | undefined;
  #checking: AnnouncedFile | undefined;
  #sizeAnnounced = true;
  /** Bytes of the batch this side has, resumed ones included: what progress shows. */
  #bytesDone = 0;
  /** Bytes that travelled in this batch: what the byte counter is told. */
  #bytesReceived = 0;
  /** The sender's `ferry-caps`, until it is answered with this side's own before the first ack. */
  #senderCaps: Capability[] | undefined;
  /** This side's last answer, when one went out before the first ack. */
  #answeredCaps: readonly Capability[] | undefined;
  #firstAckSent = false;
  #agreed = new Set<Capability>();
  /** The sender's `sas` commitment, from its caps. */
  #senderCommit: string | undefined;
  /** The sender revealed its nonce; only one reveal is taken. */
  #revealed = false;
  /** The sender's file list is complete, overdue, or was never asked for. */
  #listDone = true;
  #peerCheck: PeerCheck | undefined;
  /** The name the sender's `ferry-caps` carried; counts once both named `device`. */
  #senderName: string | undefined;
  /** The sender's `ferry-caps` said its batch is a text message; counts once both named `text`. */
  #senderText = false;
  /** The sender's secret for meeting again after a lost link; `reconnect` counts only with it. */
  #rejoinSecret: string | undefined;
  /** The words, kept back while the secret link's proofs are still being checked. */
  #words: string | undefined;
  /** The sender's proof, and the one expected of it, computed here. */
  #senderProof: string | undefined;
  #expectedProof: string | undefined;
  /** This side's proof, sent once the sender's checked out. */
  #ownProof: string | undefined;
  #linkChecked = false;
  /** Files committed on a digest, and files of this batch by index, for a later verify-failed. */
  #verifiedFiles = 0;
  readonly #paths: string[] = [];
  #opening: AnnouncedFile | undefined;

  #caps: readonly Capability[];
  #checksFreeSpace: boolean;

  constructor(config: ReceiverConfig) {
    this.#config = config;
    this.#checksFreeSpace = config.checksFreeSpace ?? false;
    // The list is for a person to read: a receiver that does not ask does not ask for it. The
    // words need this side's nonce.
    this.#caps = (config.caps ?? []).filter(
      (cap) =>
        (cap !== 'list' || config.askBeforeAccepting) &&
        (cap !== 'sas' || config.sasNonce !== undefined) &&
        // The link's proofs reuse both nonces, and only a key from a link can prove anything.
        (cap !== 'link' || (config.sasNonce !== undefined && config.holdsLinkSecret === true)),
    );
  }

  get state(): ReceiverState {
    return this.#state;
  }

  get agreed(): ReadonlySet<Capability> {
    return this.#agreed;
  }

  get peerCheck(): PeerCheck | undefined {
    return this.#peerCheck;
  }

  get peerName(): string | undefined {
    return this.#agreed.has('device') ? this.#senderName : undefined;
  }

  get rejoinSecret(): string | undefined {
    return this.#agreed.has('reconnect') ? this.#rejoinSecret : undefined;
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
        if (state.phase !== 'awaiting-answer' || !this.#pending) return [];
        if (event.resumable === false) this.#withoutResume();
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
        return this.#onWords(event.words, event.revealedCommit);
      case 'link-proved':
        if (!this.#agreed.has('link') || this.#expectedProof !== undefined) return [];
        this.#expectedProof = event.expected;
        this.#ownProof = event.own;
        return this.#checkLink();
      case 'link-failed':
        return state.phase === 'awaiting-sender' && this.#agreed.has('link')
          ? this.#abortWithReason(
              {
                code: 'ERR_UNEXPECTED',
                message: `${ERROR_MESSAGES.ERR_UNEXPECTED} (${event.detail})`,
              },
              'the receiving device could not work out the proof of the secret link',
            )
          : [];
      case 'words-failed':
        return state.phase === 'awaiting-sender'
          ? this.#abortWithReason(
              {
                code: 'ERR_UNEXPECTED',
                message: `${ERROR_MESSAGES.ERR_UNEXPECTED} (${event.detail})`,
              },
              'the receiving device could not work out the verification words',
            )
          : [];
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
    if (!this.#agreed.has('outcome')) return this.#fail(failure, 0);
    const frame = encodeMessage(
      { type: 'ferry-outcome', outcome },
      this.#native ? 'binary' : 'text',
    );
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
        if (refusesLinkProof(reading)) {
          return this.#agreed.has('link') ? this.#linkRefused() : [];
        }
        if (!refusesVerification(reading)) return this.#refuse(reading.problem);
        // Verification input is checked only by a side that verifies.
        return this.#caps.includes('sas')
          ? this.#sasFailed(`an unusable ${reading.type} arrived (${reading.problem})`)
          : [];
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
    switch (message.type) {
      case 'ferry-caps':
        // Only before the first file: extensions are agreed once, for the whole batch.
        if (state.phase === 'idle' || (state.phase === 'awaiting-metadata' && state.index === 0)) {
          this.#senderCaps = message.caps;
          this.#senderCommit = message.commit;
          this.#senderName = message.name;
          this.#senderText = message.text === true;
          this.#rejoinSecret = message.rejoin;
          // `sas` without a commitment cannot be checked: that sender is not verified.
          this.#agreed = new Set(
            message.caps.filter(
              (cap) => this.#caps.includes(cap) && (cap !== 'sas' || message.commit !== undefined),
            ),
          );
          // The link's proofs reuse both nonces: without `sas` there is nothing to prove with.
          if (!this.#agreed.has('sas')) this.#agreed.delete('link');
          // Without the sender's secret, the room to meet again in is one a stranger could find.
          if (message.rejoin === undefined) this.#agreed.delete('reconnect');
        }
        return [];
      case 'ferry-sas-reveal':
        return this.#onReveal(message.nonce);
      case 'ferry-link-proof':
        return this.#onLinkProof(message.mac);
      case 'ferry-outcome':
        // A sender has nothing to decline: only its cancel is named.
        return this.#agreed.has('outcome') && message.outcome === 'cancelled'
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
      case 'ferry-list':
        return state.phase === 'awaiting-sender' && !this.#listDone ? this.#onList(message) : [];
      case 'ferry-alive':
        // Before `ferry-start` the sender may be hashing a long prefix: alive is progress then.
        return state.phase === 'receiving' && state.awaitingStart && this.#agreed.has('reconnect')
          ? this.#progressed()
          : [];
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
            this.#agreed.has('link'),
          ),
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
      this.#totalBytes = metadata.totalBytes === 0 ? (metadata.fileSize ?? 0) : metadata.totalBytes;
    }
    const beyond = this.#beyondAccepted(index, metadata.fileSize ?? 0);
    if (beyond !== undefined) return this.#refuse(beyond);
    const unlisted = this.#unlike(index, path, metadata.fileSize);
    if (unlisted !== undefined) return this.#refuse(unlisted);
    this.#claimedBytes += metadata.fileSize ?? 0;
    const file: AnnouncedFile = { index, id: metadata.id, path, fileSize, sizeAnnounced };
    const cleared = this.#timers.clear('first-data');
    if (index > 0) return [...cleared, ...this.#accept(file)];
    // A key is a requirement: a sender that cannot prove it gets no ack, whatever else it speaks.
    if (this.#config.holdsLinkSecret === true && !this.#agreed.has('link')) {
      return [...cleared, ...this.#linkUnproven()];
    }
    const verifies = this.#agreed.has('sas');
    if (!verifies) this.#peerCheck = { kind: 'unverified' };
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
    if (!this.#agreed.has('list') && !verifies) {
      // A sender that can hear a named outcome learns so before anyone decides, so that its
      // person's cancel while this side asks is named too (docs/protocol.md, "Named outcomes").
      const early = this.#agreed.has('outcome') ? this.#answerCaps(true) : [];
      return [...cleared, ...early, ...this.#ask(offer)];
    }
    // This side's caps go out now rather than before the ack, so the sender lists its files and
    // reveals its nonce before anyone decides (docs/protocol.md, "File list", "Verification
    // words"); one early answer serves both.
    this.#offer = offer;
    this.#listDone = !this.#agreed.has('list');
    this.#state = { phase: 'awaiting-sender', index };
    return [...cleared, ...this.#answerCaps(true), this.#timers.set('list', LIST_WAIT_MS)];
  }

  /**
   * The sender's nonce, taken once, while the first offer waits for it; the driver derives the
   * words and hashes it. A reveal from a sender that committed to nothing, a second one, or one
   * at any other moment is refused.
   */
  #onReveal(nonce: string): ReceiverAction[] {
    const receiverNonce = this.#config.sasNonce;
    // A side that does not verify ignores the message, as every extension not agreed.
    if (!this.#caps.includes('sas') || receiverNonce === undefined) return [];
    if (!this.#agreed.has('sas')) {
      return this.#sasFailed('the sending device revealed a nonce it never committed to');
    }
    if (this.#revealed || this.#state.phase !== 'awaiting-sender') {
      return this.#sasFailed('the sending device revealed its nonce out of turn');
    }
    this.#revealed = true;
    const proving: ReceiverAction[] = this.#agreed.has('link')
      ? [{ type: 'prove-link', senderNonce: nonce, receiverNonce }]
      : [];
    return [{ type: 'derive-words', senderNonce: nonce, receiverNonce }, ...proving];
  }

  /**
   * This side holds a key the sender did not agree to prove: an older build or a middle that
   * dropped `link`. Either way nothing can be shown that the key exists to guarantee.
   */
  #linkUnproven(): ReceiverAction[] {
    return this.#abortWithReason(
      {
        code: 'ERR_LINK_MISMATCH',
        message: `${ERROR_MESSAGES.ERR_LINK_MISMATCH} (${LINK_UNPROVEN_PROBLEM})`,
      },
      LINK_UNPROVEN_REASON,
    );
  }

  /** The sender's proof, taken once, while the first offer waits for the sender. */
  #onLinkProof(mac: string): ReceiverAction[] {
    // A side that did not agree `link` ignores the message, as every extension not agreed.
    if (!this.#agreed.has('link')) return [];
    if (this.#senderProof !== undefined || this.#state.phase !== 'awaiting-sender') {
      return this.#linkRefused();
    }
    this.#senderProof = mac;
    return this.#checkLink();
  }

  /**
   * Once the sender's proof and the expected one are in: they must be equal; then this side's own
   * proof goes out, before anyone is asked and so before the first ack.
   */
  #checkLink(): ReceiverAction[] {
    const expectedProof = this.#expectedProof;
    const senderProof = this.#senderProof;
    const own = this.#ownProof;
    if (
      expectedProof === undefined ||
      senderProof === undefined ||
      own === undefined ||
      this.#linkChecked
    ) {
      return [];
    }
    if (!sameSecret(senderProof, expectedProof)) return this.#linkRefused();
    this.#linkChecked = true;
    const frame = encodeMessage(
      { type: 'ferry-link-proof', mac: own },
      this.#native ? 'binary' : 'text',
    );
    return [{ type: 'send', frame, early: true }, ...this.#settleCheck()];
  }

  /** The secret link does not hold: stop before anyone is asked, and tell the sender. */
  #linkRefused(): ReceiverAction[] {
    return this.#abortWithReason(
      // The message stands alone: what failed is the same to the person whatever the detail.
      defaultFailure('ERR_LINK_MISMATCH'),
      LINK_REFUSED_REASON,
    );
  }

  /**
   * The peer check once it is known: the words, or, when `link` was agreed, that the secret link
   * matched, which only the sender's proof checking out can tell.
   */
  #settleCheck(): ReceiverAction[] {
    const words = this.#words;
    if (this.#peerCheck !== undefined || words === undefined) return [];
    if (this.#agreed.has('link') && !this.#linkChecked) return [];
    this.#peerCheck = this.#agreed.has('link') ? { kind: 'link' } : { kind: 'words', words };
    return this.#askWhenReady();
  }

  /** The revealed nonce must be the one committed to; only then are the words shown. */
  #onWords(words: string, revealedCommit: string): ReceiverAction[] {
    if (this.#state.phase !== 'awaiting-sender' || !this.#revealed || this.#words) return [];
    if (this.#senderCommit === undefined || !sameSecret(revealedCommit, this.#senderCommit)) {
      return this.#sasFailed(
        'the nonce the sending device revealed is not the one it committed to',
      );
    }
    this.#words = words;
    return this.#settleCheck();
  }

  /** The sender's `sas` input does not hold: stop before anyone is asked, and say so. */
  #sasFailed(problem: string): ReceiverAction[] {
    return this.#abortWithReason(
      { code: 'ERR_SAS_MISMATCH', message: `${ERROR_MESSAGES.ERR_SAS_MISMATCH} (${problem})` },
      `the receiving device refused the transfer: ${problem}`,
    );
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

  /** Why file `index` is not the one the person was shown in the sender's list, if it is not. */
  #unlike(index: number, path: string, fileSize: number | undefined): string | undefined {
    const listed = this.#listed[index];
    if (listed === undefined || (listed.path === path && listed.size === fileSize)) {
      return undefined;
    }
    const size = fileSize === undefined ? 'no size' : formatBytes(fileSize);
    return `file ${index + 1} is announced as "${path}" (${size}), but the list the transfer was accepted on names "${listed.path}" (${formatBytes(listed.size)})`;
  }

  /** Part of the sender's file list; the last part, or the deadline, puts the offer to the person. */
  #onList(message: ListMessage): ReceiverAction[] {
    for (const file of message.files) {
      if (this.#listing.length >= Math.min(this.#total, LIST_MAX_FILES)) {
        return this.#refuse(`the file list names more files than the ${this.#total} announced`);
      }
      this.#listing.push({ path: sanitizeRelativePath(file.name), size: file.size });
    }
    if (message.more) return [];
    this.#listDone = true;
    return this.#askWhenReady();
  }

  /**
   * The wait is over: the person is asked with what list there is, but a sender that committed
   * to a nonce and has not revealed it broke its word.
   */
  #senderOverdue(): ReceiverAction[] {
    this.#listDone = true;
    if (this.#agreed.has('sas') && !this.#revealed) {
      return this.#sasFailed('the sending device did not reveal its nonce in time');
    }
    if (this.#agreed.has('link') && this.#senderProof === undefined) {
      return this.#linkRefused();
    }
    return this.#askWhenReady();
  }

  /**
   * Once the list (when asked for) and the words (when agreed) are in: check the list against
   * the batch, then ask, or accept when nobody is asked.
   */
  #askWhenReady(): ReceiverAction[] {
    const offer = this.#offer;
    const first = this.#pending;
    if (offer === undefined || first === undefined) return [];
    if (!this.#listDone || this.#peerCheck === undefined) return [];
    const cleared = this.#timers.clear('list');
    const listing = this.#listing;
    const sum = listing.reduce((bytes, file) => bytes + file.size, 0);
    if (sum > this.#totalBytes) {
      return this.#refuse(
        `the file list adds up to ${formatBytes(sum)}, more than the ${formatBytes(this.#totalBytes)} of the whole batch`,
      );
    }
    this.#listed = listing;
    const mismatch = this.#unlike(0, first.path, first.sizeAnnounced ? first.fileSize : undefined);
    if (mismatch !== undefined) return this.#refuse(mismatch);
    this.#offer = undefined;
    if (!this.#config.askBeforeAccepting) return [...cleared, ...this.#accept(first)];
    // Without a single name, the offer is the spec's: only the first name is known.
    return [
      ...cleared,
      ...this.#ask(listing.length > 0 ? { ...offer, files: [...listing] } : offer),
    ];
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

  /**
   * Before the first file, the batch must fit in what is free (less what a lost link left
   * here); before each file, the file must. A file that may resume is judged once its kept part
   * is found (`#opened`), on what it still needs.
   */
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

  /** What file `file` needs, from `from` on, when more than is free; the batch's for the first. */
  #shortOfSpace(file: AnnouncedFile, from: number): number | undefined {
    const free = this.#free;
    if (free === undefined) return undefined;
    // After a lost link what is kept covers the first file's kept part too: count it once.
    const rest = this.#totalBytes - Math.max(this.#config.keptBytes ?? 0, from);
    const needed = file.index === 0 ? Math.max(0, rest) : file.fileSize - from;
    return needed > free.bytes - free.reserve ? needed : undefined;
  }

  #resumes(file: AnnouncedFile): boolean {
    return this.#agreed.has('resume') && file.fileSize > 0 && !this.#isText(file);
  }

  /**
   * The batch is a text message this side shows instead of saving (docs/protocol.md, "Text
   * messages"): both named `text`, the sender said so, and it is one `message.txt` of an announced
   * size within the limit. Anything else is saved as the files it is.
   */
  #isText(file: AnnouncedFile): boolean {
    return (
      this.#agreed.has('text') &&
      this.#senderText &&
      this.#total === 1 &&
      file.index === 0 &&
      file.path === TEXT_MESSAGE_FILE_NAME &&
      file.sizeAnnounced &&
      file.fileSize <= TEXT_MESSAGE_MAX_BYTES
    );
  }

  /**
   * Refuses what does not fit. Locally the folder is named; the sender hears only the sizes,
   * since a path on this device is not its business. A kept part stays for a later resume.
   */
  #noSpace(needed: number, keep: boolean): ReceiverAction[] {
    const free = this.#free;
    const reserve = free?.reserve ?? 0;
    const sizes =
      `this needs ${formatBytes(needed)} and ${formatBytes(free?.bytes ?? 0)} is free` +
      (reserve > 0 ? `, of which ${formatBytes(reserve)} is kept free for the system` : '');
    const where = free?.folder === undefined ? '' : ` in ${free.folder}`;
    return this.#abortWithReason(
      { code: 'ERR_DISK_FULL', message: `not enough free space${where}: ${sizes}` },
      `the receiving device does not have enough free space: ${sizes}`,
      keep,
    );
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

  /** The batch goes where nothing partial can be kept: no resume, so no reconnect either. */
  #withoutResume(): void {
    this.#caps = this.#caps.filter((cap) => cap !== 'resume' && cap !== 'reconnect');
    this.#agreed = new Set([...this.#agreed].filter((cap) => this.#caps.includes(cap)));
  }

  /** What the driver found of the file; anything it could not vouch for starts at 0. */
  #opened(file: AnnouncedFile, offset: number, prefix: string | undefined): ReceiverAction[] {
    this.#opening = undefined;
    const size = file.fileSize;
    const usable =
      prefix !== undefined &&
      Number.isSafeInteger(offset) &&
      offset > 0 &&
      offset <= size &&
      (offset % VERIFY_BLOCK_BYTES === 0 || offset === size);
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
    // Native receivers send every control frame as binary; a browser receiver sends its ack as text.
    const framing = this.#native ? 'binary' : 'text';
    const sends: ReceiverAction[] = this.#firstAckSent ? [] : this.#answerCaps(false);
    this.#firstAckSent = true;
    if (offset > 0 && prefix !== undefined) {
      const resume = { type: 'ferry-resume', id: file.id, offset, prefix } as const;
      sends.push({ type: 'send', frame: encodeMessage(resume, framing) });
    }
    const ack = encodeMessage({ type: 'ack', id: file.id, offset, pv, pvMin, ver }, framing);
    sends.push({ type: 'send', frame: ack });
    this.#bytesDone += offset;
    this.#state = {
      phase: 'receiving',
      index: file.index,
      id: file.id,
      path: file.path,
      fileSize: file.fileSize,
      written: offset,
      awaitingStart: offset > 0,
    };
    return [...sends, ...this.#progressed()];
  }

  /**
   * This side's `ferry-caps`, when the sender announced its own: early to ask for the file list
   * or the sender's reveal (with this side's nonce), then once more before the first ack only if
   * what this side speaks changed since (a target that cannot keep partial files dropped resume),
   * since the sender keeps the last answer. Every answer naming `sas` carries the same nonce.
   */
  #answerCaps(early: boolean): ReceiverAction[] {
    if (this.#senderCaps === undefined) return [];
    // Named only when it can be agreed, so that both sides agree the same.
    const caps = this.#caps.filter(
      (cap) => cap !== 'reconnect' || this.#rejoinSecret !== undefined,
    );
    const answered = this.#answeredCaps;
    if (answered === undefined ? caps.length === 0 : sameCaps(answered, caps)) return [];
    this.#answeredCaps = caps;
    const nonce = caps.includes('sas') ? this.#config.sasNonce : undefined;
    const name = caps.includes('device') ? this.#config.deviceName : undefined;
    const frame = encodeMessage(
      {
        type: 'ferry-caps',
        caps,
        ...(nonce === undefined ? {} : { nonce }),
        ...(name === undefined ? {} : { name }),
      },
      this.#native ? 'binary' : 'text',
    );
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
    if (state.written !== state.fileSize) {
      const reason = `${state.path} was discarded: ${state.written} of ${state.fileSize} bytes arrived`;
      return this.#abortWithReason({ code: 'ERR_SIZE_MISMATCH', message: reason }, reason);
    }
    if (!this.#agreed.has('verify')) return this.#finishFile(state.index, state.id, undefined);
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
      const framing = this.#native ? 'binary' : 'text';
      const verified = { type: 'ferry-verified', id } as const;
      actions.push(
        { type: 'commit', index, sha256 },
        { type: 'send', frame: encodeMessage(verified, framing) },
      );
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
    if (this.#agreed.has('verify')) complete.verified = this.#verifiedFiles === total;
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
    return this.#fail(
      local,
      this.#native ? ABORT_REASON_FLUSH_MS : undefined,
      [{ type: 'send', frame }],
      keep,
    );
  }

  /**
   * Discards the open file first, so a failure never leaves a part file behind, unless the file
   * can be resumed and the failure says nothing against what arrived (or `keep` says so).
   */
  #fail(
    reason: Failure,
    flushMs: number | undefined,
    sends: ReceiverAction[] = [],
    keep = this.#agreed.has('resume') && KEEPS_WHAT_ARRIVED.has(reason.code),
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

function sameCaps(a: readonly Capability[], b: readonly Capability[]): boolean {
  return a.length === b.length && a.every((cap) => b.includes(cap));
}
