import type { PeerCheck } from '../transfer/transfer-view';
import { refusesLinkProof, refusesVerification } from './decode-control';
import { encodeMessage } from './encode';
import { defaultFailure, ERROR_MESSAGES, type Failure } from './error-codes';
import { encodeFileList } from './file-list';
import { frameByteLength, type Frame } from './frame';
import { classifyFrameFromReceiver, type Surface } from './frame-classification';
import {
  ABORT_REASON_FLUSH_MS,
  ACK_TIMEOUT_MS,
  CONTROL_FRAME_MAX_BYTES,
  DELIVERY_TIMEOUT_MS,
  DRAIN_STALL_TIMEOUT_MS,
  RECEIVED_WAIT_MS,
  RELAY_SIZE_CAP_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
  VERIFY_BLOCK_BYTES,
} from './limits';
import type {
  AckMessage,
  Capability,
  CapsMessage,
  ReceiverWireMessage,
  ResumeMessage,
} from './messages';
import { explainIncompatible, LINK_REFUSED_REASON } from './peer-incompatible';
import { ArmedTimers, type TimerAction } from './timer-actions';
import { negotiateVersion, type PeerVersion } from './version-negotiation';
import { versionReasonForPeer, versionRemedy, type RemedySurface } from './version-remedy';
import { sameSecret } from '../verify/same-secret';

export interface SenderFile {
  /** Chosen by the driver; the receiver echoes it in the ack. */
  id: string;
  /** The relative path the sender shows, `/`-separated. */
  fileName: string;
  fileSize: number;
}

export interface SenderConfig {
  files: readonly SenderFile[];
  /**
   * Ferry's extensions this side offers, announced in `ferry-caps` before the first metadata;
   * empty for the spec's wire alone (docs/protocol.md, "Capabilities").
   */
  caps?: readonly Capability[];
  /**
   * This connection's fresh `sas` nonce and its commitment (SHA-256, both lowercase hex); without
   * them `sas` is not offered (docs/protocol.md, "Verification words").
   */
  sas?: { nonce: string; commit: string };
  /**
   * A person confirms the verification words, or goes on without any, before a byte of file data
   * leaves: the first ack is held until `peer-confirmed`.
   */
  confirmsPeer?: boolean;
  /**
   * This side holds the secret its receive link carries: `link` is offered beside `sas`
   * (docs/protocol.md, "Secret link").
   */
  holdsLinkSecret?: boolean;
  /** This installation's name, announced beside `device` (docs/protocol.md, "Remembered devices"). */
  deviceName?: string;
  /**
   * A fresh secret, 32 bytes in lowercase hex, announced beside `reconnect`: where the two meet
   * again after a lost link derives from it; without one `reconnect` is not offered
   * (docs/protocol.md, "Reconnect").
   */
  rejoinSecret?: string;
  /**
   * The batch is a text message, one `message.txt`: said beside `text` so that a receiver that
   * agrees shows it instead of saving it (docs/protocol.md, "Text messages").
   */
  textMessage?: boolean;
  local: PeerVersion;
  surface: Surface;
  remedySurface: RemedySurface;
}

export type SenderTimer = 'ack' | 'drain' | 'delivery' | 'received';

/** `index` is the 0-based position in `config.files`; the wire's metadata index is one more. */
export type SenderEvent =
  | { type: 'channel-open'; relayed: boolean }
  | { type: 'frame'; frame: Frame }
  /** `digest`: the file's content digest, when the receiver verifies. */
  | { type: 'file-streamed'; index: number; digest?: string }
  /** Whether this side's own digest of `[0, offset)` is the prefix the receiver offered. */
  | { type: 'prefix-checked'; index: number; match: boolean }
  | { type: 'source-changed'; index: number; detail: string }
  | { type: 'source-unreadable'; index: number; detail: string }
  /** The answer to `derive-words`. */
  | { type: 'words-derived'; words: string }
  /** `derive-words` could not be carried out (the runtime's digest failed). */
  | { type: 'words-failed'; detail: string }
  /** The answer to `prove-link`: this side's proof, and the one the receiver must send. */
  | { type: 'link-proved'; own: string; expected: string }
  /** `prove-link` could not be carried out (the runtime's HMAC failed). */
  | { type: 'link-failed'; detail: string }
  /** With `confirmsPeer`: the person saw the peer check and goes on. */
  | { type: 'peer-confirmed' }
  /** With `confirmsPeer`: the words differ, or the person will not go on without any. */
  | { type: 'peer-rejected' }
  | { type: 'buffered-amount'; bytes: number }
  | { type: 'timer-fired'; timer: SenderTimer }
  | { type: 'channel-closed' }
  | { type: 'cancel' };

export type SenderAction =
  | { type: 'send'; frame: Frame }
  /**
   * Derive the verification words from both nonces and the connection's fingerprints
   * (src-shared/verify/sas.ts); answer with `words-derived`.
   */
  | { type: 'derive-words'; senderNonce: string; receiverNonce: string }
  /**
   * Compute both link proofs from the secret, both nonces and the connection's fingerprints
   * (src-shared/verify/link-secret.ts); answer with `link-proved`.
   */
  | { type: 'prove-link'; senderNonce: string; receiverNonce: string }
  | { type: 'stream-file'; index: number; offset: number }
  /** Hash `[0, offset)` of the file and compare with the receiver's `prefix` (docs/protocol.md, "Resume"). */
  | { type: 'check-prefix'; index: number; offset: number; prefix: string }
  /** The receiver already had `offset` bytes of the file, and the sender's digests agree. */
  | { type: 'file-resumed'; index: number; offset: number }
  /** The receiver confirmed the file's digest: it has the file, verified, under its final name. */
  | { type: 'file-verified'; index: number }
  | { type: 'watch-buffer' }
  | TimerAction<SenderTimer>
  /**
   * `confirmed`: true when the receiver's `received` ended the batch, false when a receiver that
   * sends it never did; absent when the batch ended by the spec's drain rule alone.
   */
  | { type: 'complete'; files: number; bytes: number; confirmed?: boolean; verified?: boolean }
  | ({ type: 'fail' } & Failure)
  | { type: 'close'; flushMs: number };

export type SenderState =
  | { phase: 'idle' }
  | { phase: 'awaiting-ack'; index: number }
  /** The first ack is in; file data waits for the verification words, or for the person. */
  | { phase: 'confirming'; index: number }
  | { phase: 'checking-prefix'; index: number; offset: number; prefix: string }
  | { phase: 'streaming'; index: number; offset: number }
  /** `drained`: the buffer is empty and a confirming receiver's `received` is awaited. */
  | { phase: 'awaiting-delivery'; drained: boolean }
  | { phase: 'done'; files: number; bytes: number; confirmed?: boolean; verified?: boolean }
  | ({ phase: 'failed' } & Failure);

export interface SenderMachine {
  readonly state: SenderState;
  /** The extensions both sides announced; empty until the receiver's `ferry-caps` arrives. */
  readonly agreed: ReadonlySet<Capability>;
  /**
   * What this side knows of the other device: the verification words once derived, or, at the
   * first ack from a receiver that gave no nonce, that it cannot show any.
   */
  readonly peerCheck: PeerCheck | undefined;
  /** The name the receiver announced beside `device`, once both named it (cleaned). */
  readonly peerName: string | undefined;
  handle(event: SenderEvent): SenderAction[];
}

/**
 * The sending side of a batch. Per file: metadata, wait for the ack (120 s), `stream-file` from the
 * ack's offset, end; then wait for delivery. Throws only on a config no transfer could start from.
 */
export function createSender(config: SenderConfig): SenderMachine {
  if (config.files.length === 0) throw new RangeError('a batch has at least one file');
  for (const file of config.files) {
    if (!Number.isSafeInteger(file.fileSize) || file.fileSize < 0) {
      throw new RangeError(`fileSize of ${file.fileName} is not a byte count`);
    }
  }
  return new Sender(config);
}

class Sender implements SenderMachine {
  readonly #config: SenderConfig;
  readonly #timers = new ArmedTimers<SenderTimer>();
  readonly #totalBytes: number;
  #state: SenderState = { phase: 'idle' };
  #relayed = false;
  #bytesSent = 0;
  /** The receiver announced `ver`: a native receiver, which confirms the batch with `received`. */
  #receiverConfirms = false;
  /** A browser sender completes only on an empty buffer, so a `received` before it is kept. */
  #receivedSeen = false;
  /** The smallest send-buffer level seen in the current wait; only a drop below it is progress. */
  #lowestBuffer: number | undefined;
  #agreed = new Set<Capability>();
  /** The receiver's `ferry-resume` for the file awaiting its ack. */
  #resumeOffer: ResumeMessage | undefined;
  readonly #verified = new Set<number>();
  #listSent = false;
  /** The receiver's nonce, once this side revealed its own in answer. */
  #receiverNonce: string | undefined;
  #peerCheck: PeerCheck | undefined;
  /** The name the receiver announced beside `device`, once both named it. */
  #peerName: string | undefined;
  /** The person confirmed the peer check (`confirmsPeer`). */
  #confirmed = false;
  /** The first ack, while file data waits in `confirming`. */
  #heldAck: AckMessage | undefined;
  /** The words, kept back while the secret link's proofs are still being checked. */
  #words: string | undefined;
  /** `link` was agreed when this side revealed its nonce: both proofs must check out. */
  #linkAgreed = false;
  /** The receiver's proof as computed here (set once this side's own went out), and as received. */
  #expectedProof: string | undefined;
  #receiverProof: string | undefined;
  #linkChecked = false;

  readonly #caps: readonly Capability[];

  constructor(config: SenderConfig) {
    this.#config = config;
    // The words need this side's nonce and its commitment; the link's proofs reuse both nonces.
    const speaks = (cap: Capability): boolean =>
      (cap !== 'sas' && cap !== 'link') || config.sas !== undefined;
    this.#caps = (config.caps ?? []).filter(
      (cap) =>
        speaks(cap) &&
        (cap !== 'link' || config.holdsLinkSecret === true) &&
        (cap !== 'reconnect' || config.rejoinSecret !== undefined),
    );
    this.#totalBytes = config.files.reduce((sum, file) => sum + file.fileSize, 0);
  }

  get state(): SenderState {
    return this.#state;
  }

  get agreed(): ReadonlySet<Capability> {
    return this.#agreed;
  }

  get peerCheck(): PeerCheck | undefined {
    return this.#peerCheck;
  }

  get peerName(): string | undefined {
    return this.#peerName;
  }

  handle(event: SenderEvent): SenderAction[] {
    const state = this.#state;
    if (state.phase === 'done' || state.phase === 'failed') return [];
    switch (event.type) {
      case 'channel-open':
        if (state.phase !== 'idle') return [];
        this.#relayed = event.relayed;
        return [...this.#announceCaps(), ...this.#announce(0)];
      case 'frame':
        return this.#onFrame(event.frame);
      case 'file-streamed':
        return state.phase === 'streaming' && state.index === event.index
          ? this.#endFile(event.index, event.digest)
          : [];
      case 'prefix-checked':
        return state.phase === 'checking-prefix' && state.index === event.index
          ? this.#start(event.index, event.match ? state.offset : 0, state.prefix)
          : [];
      case 'source-changed':
        return state.phase === 'streaming' && state.index === event.index
          ? this.#sourceChanged(event.index, event.detail)
          : [];
      case 'source-unreadable':
        return state.phase === 'streaming' && state.index === event.index
          ? this.#sourceUnreadable(event.index, event.detail)
          : [];
      case 'words-derived':
        if (this.#receiverNonce === undefined || this.#words !== undefined) return [];
        this.#words = event.words;
        return this.#settleCheck();
      case 'link-proved':
        if (!this.#linkAgreed || this.#expectedProof !== undefined) return [];
        this.#expectedProof = event.expected;
        return [
          {
            type: 'send',
            frame: encodeMessage({ type: 'ferry-link-proof', mac: event.own }, 'text'),
          },
          ...this.#checkLink(),
        ];
      case 'link-failed':
        return this.#linkAgreed && !this.#linkChecked
          ? this.#abortWithReason(
              {
                code: 'ERR_UNEXPECTED',
                message: `${ERROR_MESSAGES.ERR_UNEXPECTED} (${event.detail})`,
              },
              'the sending device could not work out the proof of the secret link',
            )
          : [];
      case 'words-failed':
        return this.#receiverNonce !== undefined && this.#peerCheck === undefined
          ? this.#abortWithReason(
              {
                code: 'ERR_UNEXPECTED',
                message: `${ERROR_MESSAGES.ERR_UNEXPECTED} (${event.detail})`,
              },
              'the sending device could not work out the verification words',
            )
          : [];
      case 'peer-confirmed':
        // Only what was shown can be confirmed.
        if (this.#peerCheck === undefined) return [];
        this.#confirmed = true;
        return this.#release();
      case 'peer-rejected':
        return state.phase === 'confirming' || (state.phase === 'awaiting-ack' && state.index === 0)
          ? this.#abortWithReason(
              defaultFailure('ERR_NOT_CONFIRMED'),
              'the sending person did not confirm the verification words',
            )
          : [];
      case 'buffered-amount':
        return this.#onBufferedAmount(event.bytes);
      case 'timer-fired':
        return this.#timers.fired(event.timer) ? this.#onTimeout(event.timer) : [];
      case 'channel-closed':
        return this.#fail(defaultFailure('ERR_PEER_CLOSED'), undefined);
      case 'cancel':
        return this.#cancel();
    }
  }

  /**
   * The person stopped: a receiver that announced `outcome` is told so before the close, within
   * the abort flush; any other gets the spec's plain close (docs/protocol.md, "Named outcomes").
   */
  #cancel(): SenderAction[] {
    const failure = defaultFailure('ERR_CANCELLED');
    if (!this.#agreed.has('outcome')) return this.#fail(failure, 0);
    const frame = encodeMessage({ type: 'ferry-outcome', outcome: 'cancelled' }, 'text');
    return this.#fail(failure, ABORT_REASON_FLUSH_MS, [{ type: 'send', frame }]);
  }

  /** Extensions are announced once, before the first metadata; a spec receiver ignores the type. */
  #announceCaps(): SenderAction[] {
    const caps = this.#caps;
    if (caps.length === 0) return [];
    // The commitment rides in the one frame a spec receiver ignores: no frame is added for it.
    const commit = caps.includes('sas') ? this.#config.sas?.commit : undefined;
    const name = caps.includes('device') ? this.#config.deviceName : undefined;
    const text = caps.includes('text') && this.#config.textMessage === true;
    const rejoin = caps.includes('reconnect') ? this.#config.rejoinSecret : undefined;
    const message: CapsMessage = {
      type: 'ferry-caps',
      caps: [...caps],
      ...(commit === undefined ? {} : { commit }),
      ...(name === undefined ? {} : { name }),
      ...(text ? { text } : {}),
      ...(rejoin === undefined ? {} : { rejoin }),
    };
    return [{ type: 'send', frame: encodeMessage(message, 'text') }];
  }

  /**
   * A receiver that verifies gave its nonce: reveal the one committed to, once, and derive the
   * words. A later answer changes neither nonce.
   */
  #reveal(caps: CapsMessage): SenderAction[] {
    const sas = this.#config.sas;
    const receiverNonce = caps.nonce;
    if (sas === undefined || receiverNonce === undefined || this.#receiverNonce !== undefined) {
      return [];
    }
    if (!this.#agreed.has('sas')) return [];
    this.#receiverNonce = receiverNonce;
    const reveal = encodeMessage({ type: 'ferry-sas-reveal', nonce: sas.nonce }, 'text');
    // The link's proofs need both nonces too: `link` counts only beside `sas`.
    this.#linkAgreed = this.#agreed.has('link');
    const proving: SenderAction[] = this.#linkAgreed
      ? [{ type: 'prove-link', senderNonce: sas.nonce, receiverNonce }]
      : [];
    return [
      { type: 'send', frame: reveal },
      { type: 'derive-words', senderNonce: sas.nonce, receiverNonce },
      ...proving,
    ];
  }

  /**
   * The peer check once it is known: the words, or, when `link` was agreed, that the secret link
   * matched, which only both proofs checking out can tell.
   */
  #settleCheck(): SenderAction[] {
    if (this.#peerCheck !== undefined || this.#words === undefined) return [];
    if (this.#linkAgreed && !this.#linkChecked) return [];
    this.#peerCheck = this.#linkAgreed ? { kind: 'link' } : { kind: 'words', words: this.#words };
    return this.#release();
  }

  /** The receiver's proof, once both it and the expected one are in, must be the expected one. */
  #checkLink(): SenderAction[] {
    const expectedProof = this.#expectedProof;
    const receiverProof = this.#receiverProof;
    if (expectedProof === undefined || receiverProof === undefined || this.#linkChecked) return [];
    if (!sameSecret(receiverProof, expectedProof)) return this.#linkRefused();
    this.#linkChecked = true;
    return this.#settleCheck();
  }

  #onLinkProof(mac: string): SenderAction[] {
    // A side that did not agree `link` ignores the message, as every extension not agreed.
    if (!this.#linkAgreed) return [];
    const state = this.#state;
    if (this.#receiverProof !== undefined || state.phase !== 'awaiting-ack' || state.index !== 0) {
      return this.#linkRefused();
    }
    this.#receiverProof = mac;
    return this.#checkLink();
  }

  /** The secret link does not hold: stop before any file data, and tell the receiver. */
  #linkRefused(): SenderAction[] {
    return this.#abortWithReason(
      // The message stands alone: what failed is the same to the person whatever the detail.
      defaultFailure('ERR_LINK_MISMATCH'),
      LINK_REFUSED_REASON,
    );
  }

  /** A receiver about to ask its person named `list`: every file before the person decides. */
  #listFiles(): SenderAction[] {
    if (!this.#agreed.has('list') || this.#listSent) return [];
    this.#listSent = true;
    const files = this.#config.files.map((file) => ({ name: file.fileName, size: file.fileSize }));
    return encodeFileList(files).map((frame): SenderAction => ({ type: 'send', frame }));
  }

  #announce(index: number): SenderAction[] {
    const file = this.#file(index);
    if (this.#relayed && file.fileSize > RELAY_SIZE_CAP_BYTES) {
      const reason = `${file.fileName} is larger than the 2 GiB limit for relayed connections`;
      return this.#abortWithReason({ code: 'ERR_RELAY_SIZE_CAP', message: reason }, reason);
    }
    const { local, files } = this.#config;
    const metadata = encodeMessage(
      {
        type: 'metadata',
        id: file.id,
        fileName: file.fileName,
        fileSize: file.fileSize,
        index: index + 1,
        total: files.length,
        totalBytes: this.#totalBytes,
        pv: local.pv,
        pvMin: local.pvMin,
        ver: local.ver,
      },
      'text',
    );
    if (frameByteLength(metadata) > CONTROL_FRAME_MAX_BYTES) {
      const reason = `file ${index + 1} has a name too long to announce, so the transfer stopped`;
      return this.#abortWithReason(
        { code: 'ERR_NAME_TOO_LONG', message: `${file.fileName} has a name too long to announce` },
        reason,
      );
    }
    this.#state = { phase: 'awaiting-ack', index };
    this.#resumeOffer = undefined;
    return [{ type: 'send', frame: metadata }, this.#timers.set('ack', ACK_TIMEOUT_MS)];
  }

  #onFrame(frame: Frame): SenderAction[] {
    const reading = classifyFrameFromReceiver(frame);
    switch (reading.kind) {
      case 'ignored':
        return [];
      case 'protocol-error':
        return this.#protocolError(reading.problem);
      case 'refused': {
        const problem = `an unusable ${reading.type} arrived (${reading.problem})`;
        if (refusesLinkProof(reading)) return this.#linkAgreed ? this.#linkRefused() : [];
        if (!refusesVerification(reading)) return this.#protocolError(problem);
        // Verification input is checked only by a side that verifies.
        return this.#caps.includes('sas')
          ? this.#abortWithReason(
              {
                code: 'ERR_SAS_MISMATCH',
                message: `${ERROR_MESSAGES.ERR_SAS_MISMATCH} (${problem})`,
              },
              `the sending device refused the transfer: ${problem}`,
            )
          : [];
      }
      case 'control':
        return this.#onMessage(reading.message);
    }
  }

  #onMessage(message: ReceiverWireMessage): SenderAction[] {
    const state = this.#state;
    switch (message.type) {
      case 'ferry-caps':
        // Only the answer to this side's own announcement, before the first ack, counts; the
        // last one counts when a receiver that answered early answers again.
        if (this.#caps.length > 0 && state.phase === 'awaiting-ack' && state.index === 0) {
          this.#agreed = new Set(message.caps.filter((cap) => this.#caps.includes(cap)));
          this.#peerName = this.#agreed.has('device') ? message.name : undefined;
          return [...this.#reveal(message), ...this.#listFiles()];
        }
        return [];
      case 'ferry-resume':
        if (this.#agreed.has('resume') && state.phase === 'awaiting-ack') {
          this.#resumeOffer = message;
        }
        return [];
      case 'ferry-verified':
        return this.#onVerified(message.id);
      case 'ferry-alive':
        // A later file's ack may wait on the receiver hashing what it kept (no person decides
        // then): while it says it is alive, the wait goes on.
        return state.phase === 'awaiting-ack' && state.index > 0 && this.#agreed.has('reconnect')
          ? [this.#timers.set('ack', ACK_TIMEOUT_MS)]
          : [];
      case 'ferry-link-proof':
        return this.#onLinkProof(message.mac);
      case 'ferry-outcome':
        // Taken whenever this side offered `outcome`: a receiver declines before its first ack,
        // maybe before it answered the announcement, and only a receiver that read the offer
        // sends one.
        if (!this.#caps.includes('outcome')) return [];
        return this.#fail(
          defaultFailure(
            message.outcome === 'declined' ? 'ERR_PEER_DECLINED' : 'ERR_PEER_CANCELLED',
          ),
          0,
        );
      case 'incompatible':
        return this.#fail(
          explainIncompatible(
            message,
            this.#config.local,
            this.#config.remedySurface,
            this.#linkAgreed,
          ),
          0,
        );
      case 'received':
        return state.phase === 'awaiting-delivery' ? this.#onReceived(state.drained) : [];
      case 'ack':
        return state.phase === 'awaiting-ack'
          ? this.#onAck(state.index, message)
          : this.#protocolError('an ack arrived while no file was waiting for one');
    }
  }

  #onAck(index: number, ack: AckMessage): SenderAction[] {
    const file = this.#file(index);
    const { local, remedySurface } = this.#config;
    if (ack.id !== file.id) return this.#protocolError('an ack arrived for a different file');
    if (!negotiateVersion(local, ack).compatible) {
      return this.#abortWithReason(
        { code: 'ERR_INCOMPATIBLE_VERSION', message: versionRemedy(local, ack, remedySurface) },
        versionReasonForPeer(local, ack),
      );
    }
    if (ack.offset > file.fileSize) {
      const reason = `the receiving device asked to start ${file.fileName} at byte ${ack.offset}, past its end`;
      return this.#abortWithReason(
        { code: 'ERR_PROTOCOL', message: `${ERROR_MESSAGES.ERR_PROTOCOL}: ${reason}` },
        reason,
      );
    }
    const resuming = ack.offset > 0 && this.#agreed.has('resume');
    if (resuming && ack.offset % VERIFY_BLOCK_BYTES !== 0 && ack.offset !== file.fileSize) {
      const reason = `the receiving device asked to resume ${file.fileName} at byte ${ack.offset}, which is not on a block boundary`;
      return this.#abortWithReason(
        { code: 'ERR_PROTOCOL', message: `${ERROR_MESSAGES.ERR_PROTOCOL}: ${reason}` },
        reason,
      );
    }
    const cleared = this.#timers.clear('ack');
    // A verifying receiver confirms each file, so the batch ends on its word too.
    this.#receiverConfirms = ack.ver !== undefined || this.#agreed.has('verify');
    if (index === 0) {
      // The receiver proves it holds the secret before its first ack, or it does not hold it.
      if (this.#linkAgreed && this.#receiverProof === undefined) {
        return this.#linkRefused();
      }
      // A receiver that gave no nonce before its first ack cannot show words.
      if (this.#receiverNonce === undefined) this.#peerCheck = { kind: 'unverified' };
      if (this.#holdsData()) {
        this.#heldAck = ack;
        this.#state = { phase: 'confirming', index };
        return cleared;
      }
    }
    return [...cleared, ...this.#begin(index, ack)];
  }

  /**
   * No file data before the words are known (so both people can see them first) and, when a
   * person confirms, before they did.
   */
  #holdsData(): boolean {
    return (
      this.#peerCheck === undefined || (this.#config.confirmsPeer === true && !this.#confirmed)
    );
  }

  /** The held first ack goes ahead once nothing holds it any more. */
  #release(): SenderAction[] {
    const state = this.#state;
    const ack = this.#heldAck;
    if (state.phase !== 'confirming' || ack === undefined || this.#holdsData()) return [];
    this.#heldAck = undefined;
    return this.#begin(state.index, ack);
  }

  /** The file's bytes from where the ack says, a resume offer checked first. */
  #begin(index: number, ack: AckMessage): SenderAction[] {
    const file = this.#file(index);
    if (ack.offset === 0 || !this.#agreed.has('resume')) {
      // The spec's seek: any offset up to the size, taken as given.
      return this.#stream(index, ack.offset);
    }
    const offer = this.#resumeOffer;
    // A resume without the receiver's prefix digest cannot be checked, so the file starts over.
    if (offer === undefined || offer.id !== file.id || offer.offset !== ack.offset) {
      return this.#start(index, 0, undefined);
    }
    this.#state = { phase: 'checking-prefix', index, offset: ack.offset, prefix: offer.prefix };
    return [{ type: 'check-prefix', index, offset: ack.offset, prefix: offer.prefix }];
  }

  /**
   * Tells a resuming receiver where the bytes really start: where it offered when the digests
   * agree, else 0 (docs/protocol.md, "Resume"). A whole file already there ends at once, and its
   * digest is the prefix both sides agreed on.
   */
  #start(index: number, offset: number, prefix: string | undefined): SenderAction[] {
    const file = this.#file(index);
    const start = encodeMessage({ type: 'ferry-start', id: file.id, offset }, 'text');
    const actions: SenderAction[] = [{ type: 'send', frame: start }];
    if (offset > 0) actions.push({ type: 'file-resumed', index, offset });
    if (offset === file.fileSize && offset > 0) {
      return [...actions, ...this.#endFile(index, prefix)];
    }
    return [...actions, ...this.#stream(index, offset)];
  }

  #stream(index: number, offset: number): SenderAction[] {
    const file = this.#file(index);
    this.#bytesSent += file.fileSize - offset;
    // Nothing left to read: an empty file is metadata, ack, end with no binary frame. A verifying
    // receiver still needs its digest, which the driver makes while "streaming" nothing.
    if (offset === file.fileSize && !this.#agreed.has('verify')) {
      return this.#endFile(index, undefined);
    }
    this.#state = { phase: 'streaming', index, offset };
    this.#lowestBuffer = undefined;
    return [{ type: 'stream-file', index, offset }];
  }

  /** `digest` goes after `end` when the receiver verifies; an empty file's is computed by the driver too. */
  #endFile(index: number, digest: string | undefined): SenderAction[] {
    const actions: SenderAction[] = [
      ...this.#timers.clear('drain'),
      { type: 'send', frame: encodeMessage({ type: 'end' }, 'text') },
    ];
    if (this.#agreed.has('verify') && digest !== undefined) {
      const id = this.#file(index).id;
      actions.push({
        type: 'send',
        frame: encodeMessage({ type: 'ferry-digest', id, sha256: digest }, 'text'),
      });
    }
    if (index + 1 < this.#config.files.length) return [...actions, ...this.#announce(index + 1)];
    this.#state = { phase: 'awaiting-delivery', drained: false };
    this.#lowestBuffer = undefined;
    if (this.#config.surface === 'native') {
      actions.push(this.#timers.set('delivery', DELIVERY_TIMEOUT_MS));
    }
    actions.push({ type: 'watch-buffer' });
    return actions;
  }

  #onBufferedAmount(bytes: number): SenderAction[] {
    const state = this.#state;
    if (state.phase === 'awaiting-delivery') {
      if (state.drained) return [];
      if (bytes === 0) return this.#drained();
      return this.#config.surface === 'native' ? this.#watchShrink(bytes, 'delivery') : [];
    }
    if (state.phase === 'streaming' && this.#config.surface === 'native') {
      if (bytes >= SEND_BUFFER_LOW_WATER_BYTES) return this.#watchShrink(bytes, 'drain');
      // Below the low-water mark the driver streams again, so there is no stall to time.
      this.#lowestBuffer = undefined;
      return this.#timers.clear('drain');
    }
    return [];
  }

  /** (Re)starts `timer` whenever the buffer reaches a new low; a level that does not drop is no progress. */
  #watchShrink(bytes: number, timer: 'drain' | 'delivery'): SenderAction[] {
    const lowest = this.#lowestBuffer;
    if (lowest !== undefined && bytes >= lowest) return [];
    this.#lowestBuffer = bytes;
    // The delivery window opened when the batch ended; its first level is a baseline, not a drop.
    if (timer === 'delivery' && lowest === undefined) return [];
    return [
      this.#timers.set(timer, timer === 'drain' ? DRAIN_STALL_TIMEOUT_MS : DELIVERY_TIMEOUT_MS),
    ];
  }

  #onTimeout(timer: SenderTimer): SenderAction[] {
    switch (timer) {
      case 'ack':
        return this.#fail(defaultFailure('ERR_ACK_TIMEOUT'), 0);
      case 'drain':
        return this.#fail(defaultFailure('ERR_DRAIN_STALLED'), 0);
      case 'delivery':
        return this.#fail(defaultFailure('ERR_DELIVERY_TIMEOUT'), 0);
      case 'received':
        return this.#complete(false);
    }
  }

  #sourceChanged(index: number, detail: string): SenderAction[] {
    const name = this.#file(index).fileName;
    return this.#abortWithReason(
      {
        code: 'ERR_SOURCE_CHANGED',
        message: `${name} changed on disk while it was being sent (${detail})`,
      },
      `${name} changed on the sending device while it was being sent`,
    );
  }

  #sourceUnreadable(index: number, detail: string): SenderAction[] {
    const name = this.#file(index).fileName;
    return this.#abortWithReason(
      { code: 'ERR_SOURCE_UNREADABLE', message: `${name} could not be read (${detail})` },
      `${name} could not be read on the sending device`,
    );
  }

  #protocolError(problem: string): SenderAction[] {
    return this.#fail(
      { code: 'ERR_PROTOCOL', message: `${ERROR_MESSAGES.ERR_PROTOCOL}: ${problem}` },
      0,
    );
  }

  /** Tells the receiver why (as text: a binary frame would be file data to it), then closes. */
  #abortWithReason(local: Failure, reason: string): SenderAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    const frame = encodeMessage({ type: 'incompatible', reason, pv, pvMin, ver }, 'text');
    return this.#fail(local, ABORT_REASON_FLUSH_MS, [{ type: 'send', frame }]);
  }

  /** `flushMs` undefined: the channel is already closed, so there is nothing to close. */
  #fail(reason: Failure, flushMs: number | undefined, first: SenderAction[] = []): SenderAction[] {
    this.#state = { phase: 'failed', ...reason };
    const actions: SenderAction[] = [
      ...first,
      ...this.#timers.clearAll(),
      { type: 'fail', ...reason },
    ];
    if (flushMs !== undefined) actions.push({ type: 'close', flushMs });
    return actions;
  }

  /**
   * The buffer is empty: the spec's end of batch, unless the receiver confirms batches; then the
   * channel stays open a little longer for its `received` (docs/protocol.md, "Delivery
   * confirmation"), so the receiver is never cut off before it can answer.
   */
  #drained(): SenderAction[] {
    if (!this.#receiverConfirms) return this.#complete(undefined);
    if (this.#receivedSeen || this.#allVerified()) return this.#complete(true);
    this.#state = { phase: 'awaiting-delivery', drained: true };
    return [...this.#timers.clear('delivery'), this.#timers.set('received', RECEIVED_WAIT_MS)];
  }

  /**
   * A native sender finishes on `received`. A browser sender declares completion only once its
   * buffer is empty (docs/protocol.md, "End of batch"), so before that it only notes it.
   */
  #onReceived(drained: boolean): SenderAction[] {
    if (this.#config.surface === 'native' || drained) return this.#complete(true);
    this.#receivedSeen = true;
    return [];
  }

  /**
   * A verifying receiver confirms each file once it has its final name. A browser receiver sends
   * no `received`, so for it the last confirmation ends the batch once the buffer is empty.
   */
  #onVerified(id: string): SenderAction[] {
    if (!this.#agreed.has('verify')) return [];
    const index = this.#config.files.findIndex((file) => file.id === id);
    if (index < 0 || this.#verified.has(index)) return [];
    this.#verified.add(index);
    const actions: SenderAction[] = [{ type: 'file-verified', index }];
    const state = this.#state;
    if (state.phase === 'awaiting-delivery' && state.drained && this.#allVerified()) {
      actions.push(...this.#complete(true));
    }
    return actions;
  }

  #allVerified(): boolean {
    return this.#agreed.has('verify') && this.#verified.size === this.#config.files.length;
  }

  #complete(confirmed: boolean | undefined): SenderAction[] {
    const files = this.#config.files.length;
    const bytes = this.#bytesSent;
    const outcome: { files: number; bytes: number; confirmed?: boolean; verified?: boolean } =
      confirmed === undefined ? { files, bytes } : { files, bytes, confirmed };
    if (this.#agreed.has('verify')) outcome.verified = this.#allVerified();
    this.#state = { phase: 'done', ...outcome };
    return [
      ...this.#timers.clearAll(),
      { type: 'complete', ...outcome },
      { type: 'close', flushMs: 0 },
    ];
  }

  #file(index: number): SenderFile {
    return this.#config.files[index];
  }
}
