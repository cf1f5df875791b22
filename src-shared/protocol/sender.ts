import type { PeerCheck } from '../transfer/transfer-view';
import { encodeMessage } from './encode';
import { defaultFailure, ERROR_MESSAGES, type Failure } from './error-codes';
import type { Frame } from './frame';
import { classifyFrameFromReceiver } from './frame-classification';
import {
  ABORT_REASON_FLUSH_MS,
  ACK_TIMEOUT_MS,
  DELIVERY_TIMEOUT_MS,
  DRAIN_STALL_TIMEOUT_MS,
  RECEIVED_WAIT_MS,
  SEND_BUFFER_LOW_WATER_BYTES,
} from './limits';
import type { AckMessage, Capability, ReceiverWireMessage, ResumeMessage } from './messages';
import { namedOutcome } from './named-outcome';
import type { PeerCheckStep } from './peer-check-step';
import { explainIncompatible } from './peer-incompatible';
import type { Refusal } from './refusal';
import { onBlockBoundary } from './resume-offset';
import { SenderCaps } from './sender-caps';
import { SenderPeerCheck } from './sender-peer-check';
import type {
  SenderAction,
  SenderConfig,
  SenderEvent,
  SenderFile,
  SenderMachine,
  SenderState,
  SenderTimer,
} from './sender-types';
import { ArmedTimers } from './timer-actions';
import { versionRefusal } from './version-remedy';
import { badOffset, metadataFrame, sourceChanged, sourceUnreadable } from './sender-refusals';

export type * from './sender-types';

/**
 * The sending side of a batch, as the spec's per-file sequence (data-channel-protocol.md,
 * "Per-file sequence"): metadata, wait for the ack (120 s), `stream-file` from the ack's offset,
 * end; then wait for delivery ("End of batch"). Ferry's extensions are the modules it composes:
 * capability agreement and the file list (sender-caps.ts), the peer check (sender-peer-check.ts),
 * and resume from a receiver's offer (resume-offset.ts); a receiver that announced nothing meets
 * none of them. Throws only on a config no transfer could start from.
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
  #peerRelease: { ver?: string } | undefined;
  /** The smallest send-buffer level seen in the current wait; only a drop below it is progress. */
  #lowestBuffer: number | undefined;
  readonly #caps: SenderCaps;
  readonly #check: SenderPeerCheck;
  /** The receiver's `ferry-resume` for the file awaiting its ack. */
  #resumeOffer: ResumeMessage | undefined;
  readonly #verified = new Set<number>();
  /** The first ack, while file data waits in `confirming`. */
  #heldAck: AckMessage | undefined;

  constructor(config: SenderConfig) {
    this.#config = config;
    const caps = new SenderCaps(config);
    this.#caps = caps;
    this.#check = new SenderPeerCheck({
      sas: caps.offers('sas') ? config.sas : undefined,
      confirmsPeer: config.confirmsPeer === true,
      agreed: () => caps.agreed,
    });
    this.#totalBytes = config.files.reduce((sum, file) => sum + file.fileSize, 0);
  }

  get state(): SenderState {
    return this.#state;
  }

  get agreed(): ReadonlySet<Capability> {
    return this.#caps.agreed;
  }

  get peerCheck(): PeerCheck | undefined {
    return this.#check.check;
  }

  get peerName(): string | undefined {
    return this.#caps.peerName;
  }

  get peerPairShare(): string | undefined {
    return this.#caps.peerPairShare;
  }

  get peerRelease(): { ver?: string } | undefined {
    return this.#peerRelease;
  }

  handle(event: SenderEvent): SenderAction[] {
    const state = this.#state;
    if (state.phase === 'done' || state.phase === 'failed') return [];
    switch (event.type) {
      case 'channel-open':
        if (state.phase !== 'idle') return [];
        this.#relayed = event.relayed;
        return [...this.#sends(this.#caps.announce()), ...this.#announce(0)];
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
          ? this.#refuse(sourceChanged(this.#file(event.index).fileName, event.detail))
          : [];
      case 'source-unreadable':
        return state.phase === 'streaming' && state.index === event.index
          ? this.#refuse(sourceUnreadable(this.#file(event.index).fileName, event.detail))
          : [];
      case 'words-derived':
      case 'words-failed':
      case 'link-proved':
      case 'link-failed':
        return this.#step(this.#check.answer(event));
      case 'peer-confirmed':
        return this.#step(this.#check.confirmed());
      case 'peer-rejected':
        return this.#step(
          this.#check.rejected(
            state.phase === 'confirming' || (state.phase === 'awaiting-ack' && state.index === 0),
          ),
        );
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
    const frame = namedOutcome(this.#caps.agreed, 'cancelled', 'text');
    if (frame === undefined) return this.#fail(failure, 0);
    return this.#fail(failure, ABORT_REASON_FLUSH_MS, [{ type: 'send', frame }]);
  }

  /** A peer-check step: a refusal aborts; a check that just became known may free the first ack. */
  #step(step: PeerCheckStep): SenderAction[] {
    if (step.kind === 'refuse') return [...step.actions, ...this.#refuse(step)];
    return step.settled ? [...step.actions, ...this.#release()] : step.actions;
  }

  #sends(frames: Frame[]): SenderAction[] {
    return frames.map((frame): SenderAction => ({ type: 'send', frame }));
  }

  #announce(index: number): SenderAction[] {
    const metadata = metadataFrame(this.#config, index, this.#totalBytes, this.#relayed);
    if ('failure' in metadata) return this.#refuse(metadata);
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
        const check = this.#check.unusable(reading);
        if (check !== undefined) return this.#step(check);
        return this.#protocolError(`an unusable ${reading.type} arrived (${reading.problem})`);
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
        if (!this.#caps.announced || state.phase !== 'awaiting-ack' || state.index !== 0) return [];
        this.#caps.take(message);
        return [
          ...this.#step(this.#check.answered(message)),
          ...this.#sends(this.#caps.listFiles()),
        ];
      case 'ferry-resume':
        if (this.#caps.agreed.has('resume') && state.phase === 'awaiting-ack') {
          this.#resumeOffer = message;
        }
        return [];
      case 'ferry-verified':
        return this.#onVerified(message.id);
      case 'ferry-progress':
        return this.#onPeerProgress(message.index - 1, message.bytes);
      case 'ferry-alive':
        // A later file's ack may wait on the receiver hashing what it kept (no person decides
        // then): while it says it is alive, the wait goes on.
        return state.phase === 'awaiting-ack' &&
          state.index > 0 &&
          this.#caps.agreed.has('reconnect')
          ? [this.#timers.set('ack', ACK_TIMEOUT_MS)]
          : [];
      case 'ferry-link-proof':
        return this.#step(
          this.#check.linkProof(message.mac, state.phase === 'awaiting-ack' && state.index === 0),
        );
      case 'ferry-outcome':
        // Taken whenever this side offered `outcome`: a receiver declines before its first ack,
        // maybe before it answered the announcement, and only a receiver that read the offer
        // sends one.
        if (!this.#caps.offers('outcome')) return [];
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
            this.#check.linkAgreed,
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
    const versions = versionRefusal(local, ack, remedySurface);
    if (versions !== undefined) return this.#refuse(versions);
    const { fileName, fileSize } = file;
    if (ack.offset > fileSize) {
      return this.#refuse(badOffset(`start ${fileName} at byte ${ack.offset}, past its end`));
    }
    const resuming = ack.offset > 0 && this.#caps.agreed.has('resume');
    if (resuming && !onBlockBoundary(ack.offset, fileSize)) {
      const where = `at byte ${ack.offset}, which is not on a block boundary`;
      return this.#refuse(badOffset(`resume ${fileName} ${where}`));
    }
    const cleared = this.#timers.clear('ack');
    this.#peerRelease ??= ack.ver === undefined ? {} : { ver: ack.ver };
    // A verifying receiver confirms each file, so the batch ends on its word too.
    this.#receiverConfirms = ack.ver !== undefined || this.#caps.agreed.has('verify');
    if (index === 0) {
      const check = this.#check.atFirstAck();
      if (check.kind === 'refuse') return this.#step(check);
      if (this.#check.holdsData) {
        this.#heldAck = ack;
        this.#state = { phase: 'confirming', index };
        return cleared;
      }
    }
    return [...cleared, ...this.#begin(index, ack)];
  }

  /** The held first ack goes ahead once nothing holds it any more. */
  #release(): SenderAction[] {
    const state = this.#state;
    const ack = this.#heldAck;
    if (state.phase !== 'confirming' || ack === undefined || this.#check.holdsData) return [];
    this.#heldAck = undefined;
    return this.#begin(state.index, ack);
  }

  /** The file's bytes from where the ack says, a resume offer checked first. */
  #begin(index: number, ack: AckMessage): SenderAction[] {
    const file = this.#file(index);
    if (ack.offset === 0 || !this.#caps.agreed.has('resume')) {
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
    if (offset === file.fileSize && !this.#caps.agreed.has('verify')) {
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
    if (this.#caps.agreed.has('verify') && digest !== undefined) {
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

  #protocolError(problem: string): SenderAction[] {
    return this.#fail(
      { code: 'ERR_PROTOCOL', message: `${ERROR_MESSAGES.ERR_PROTOCOL}: ${problem}` },
      0,
    );
  }

  /** Tells the receiver why (as text: a binary frame would be file data to it), then closes. */
  #refuse({ failure, reason }: Refusal): SenderAction[] {
    const { pv, pvMin, ver } = this.#config.local;
    const frame = encodeMessage({ type: 'incompatible', reason, pv, pvMin, ver }, 'text');
    return this.#fail(failure, ABORT_REASON_FLUSH_MS, [{ type: 'send', frame }]);
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
    if (!this.#caps.agreed.has('verify')) return [];
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

  /** A report that cannot be true (no such file, more than it holds) is ignored, as lane acks are. */
  #onPeerProgress(index: number, bytes: number): SenderAction[] {
    if (!this.#caps.agreed.has('progress')) return [];
    const file = this.#config.files[index] as SenderFile | undefined;
    if (file === undefined || bytes > file.fileSize) return [];
    return [{ type: 'peer-progress', index, bytes }];
  }

  #allVerified(): boolean {
    return this.#caps.agreed.has('verify') && this.#verified.size === this.#config.files.length;
  }

  #complete(confirmed: boolean | undefined): SenderAction[] {
    const files = this.#config.files.length;
    const bytes = this.#bytesSent;
    const outcome: { files: number; bytes: number; confirmed?: boolean; verified?: boolean } =
      confirmed === undefined ? { files, bytes } : { files, bytes, confirmed };
    if (this.#caps.agreed.has('verify')) outcome.verified = this.#allVerified();
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
