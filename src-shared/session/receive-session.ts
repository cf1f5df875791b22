import type { Surface } from '../protocol/frame-classification';
import type { Capability } from '../protocol/messages';
import {
  createReceiver,
  type Offer,
  type ReceiverAction,
  type ReceiverEvent,
  type ReceiverMachine,
  type ReceiverState,
  type ReceiverTimer,
} from '../protocol/receiver';
import type { PeerVersion } from '../protocol/version-negotiation';
import type { RemedySurface } from '../protocol/version-remedy';
import type { ReceivingSystem } from '../names/risky-name';
import { offerFileViews } from '../transfer/offer-files';
import type {
  DeliveredFileView,
  OfferView,
  PeerCheck,
  PeerSummary,
  ProgressView,
  TransferView,
} from '../transfer/transfer-view';
import { encodeMessage } from '../protocol/encode';
import { capsWithIdentity, type DeviceSetting } from '../devices/peer-identity';
import { peerProgram } from '../devices/peer-program';
import type { ChannelPort, Clock } from './ports';
import { ProgressMeter } from './progress-meter';
import type { SaveTarget } from './save-target';
import { textTarget, type TextTarget } from './text-message';
import { freeSpaceReserve } from '../protocol/free-space-reserve';
import { SessionFailure, toFailure } from './session-failure';
import { SessionTimers } from './session-timers';
import { reconnects, type KeptBytes } from './link-watch';
import { digestOfBlocks, FileDigest } from '../verify/file-digest';
import type { BlockSha256, IncrementalSha256Factory } from '../verify/hash-functions';
import type { LaneOptions } from './lanes/lane-options';
import { LaneReceiver } from './lanes/lane-receiver';
import { commitmentTo, newNonce } from '../verify/sas';
import { SessionChassis } from './session-chassis';
import { newPairShare } from '../nearby/pair-secret';
import { errorMessage } from '../format/error-message';

/**
 * How the batch is accepted: by asking the person (who picks where it goes, or declines with
 * undefined), or at once into a target chosen beforehand.
 */
export type Acceptance =
  | {
      ask: true;
      /** What the accept prompt shows under "Save to" for this offer. */
      destination(offer: OfferView): Promise<string>;
      choose(offer: OfferView): Promise<SaveTarget | undefined>;
      /**
       * Where an offer goes that is taken without asking, such as the desktop app's quick save
       * from a remembered device (docs/protocol.md, "Remembered devices"): the prompt is then
       * never shown. Undefined puts the offer to the person.
       */
      withoutAsking?(offer: OfferView): SaveTarget | undefined;
    }
  | { ask: false; target: SaveTarget };

export interface ReceiveSessionConfig {
  channel: ChannelPort;
  /**
   * Where the runtime can make more connections: a sender that agreed `lanes` may then stripe the
   * batch over extra ones it opens (docs/protocol.md, "Lanes"). Without it none are answered.
   */
  lanes?: LaneOptions;
  clock: Clock;
  surface: Surface;
  /** The runtime's incremental SHA-256, where it has one (hash-functions.ts); else WebCrypto or JS. */
  incrementalSha256?: IncrementalSha256Factory;
  /** Where the runtime hashes whole blocks off its thread (a page without WebCrypto: workers). */
  blockSha256?: BlockSha256;
  /** Ferry's extensions this side speaks (docs/protocol.md, "Capabilities"). */
  caps?: readonly Capability[];
  /**
   * The runtime's secure random source, for the `sas` nonce drawn for each connection; without
   * it no verification words are offered (docs/protocol.md, "Verification words").
   */
  randomBytes?: (count: number) => Uint8Array;
  /**
   * The secret of the receive link this side was opened from (docs/protocol.md, "Secret link");
   * with it `link` is announced, and the sender must prove it holds the same.
   */
  linkSecret?: string;
  /** This installation's name and remembered devices (docs/protocol.md, "Remembered devices"). */
  devices?: DeviceSetting;
  local: PeerVersion;
  remedySurface: RemedySurface;
  /**
   * The system the files are opened on, whose double-click decides which listed files are
   * flagged executable (src-shared/names/risky-name.ts); unknown flags by every system's list.
   */
  system?: ReceivingSystem;
  acceptance: Acceptance;
  publish(view: TransferView): void;
  /** After completion a cancel only closes the channel: the files are already saved. */
  cancelled: AbortSignal;
  /** Called once the first ack or incompatible has been sent. */
  started(reconnectable: boolean): void;
  /**
   * Bytes of this batch already here from before a lost link, so the batch is checked against
   * free space for the rest only (docs/protocol.md, "Free space").
   */
  keptBytes?: number;
  /** Tests shorten the machine's timers by name. */
  timers?: Partial<Record<ReceiverTimer, number>>;
  flushMs?: number;
  closeGraceMs?: number;
}

/**
 * Drives the protocol's receiver machine over an open channel, on every surface. Storage (open,
 * write, commit, discard) and everything after it run strictly in the machine's order on one
 * queue, so an ack goes out only once its file is open and `received` only once every file has
 * its final name. Writes are handed over without waiting, so a target can batch them. Resolves
 * once the channel is closed and the queue is empty.
 */
export function runReceiveSession(config: ReceiveSessionConfig): Promise<ReceiveSessionEnd> {
  return new ReceiveSession(config).finished;
}

/** How a receive session ended; its outcome is published, except a lost link's. */
export interface ReceiveSessionEnd {
  /** The bytes that travelled, when the batch completed. */
  received: number | undefined;
  /** The bytes that arrived in this session, whatever its end: a batch restored after a lost link counts every session's. */
  travelled: number;
  /**
   * The link went silent mid-batch between peers that agreed `reconnect`: nothing was published,
   * what arrived is kept, and the flow may connect again into `target` (docs/protocol.md,
   * "Reconnect").
   */
  lost: boolean;
  /** Where the batch went, once accepted. */
  target: SaveTarget | undefined;
  /** How far the batch got, as its progress last said: what a reconnect keeps. */
  kept: KeptBytes;
  /** The sender's secret, when `reconnect` was agreed: see SessionEndForReconnect. */
  rejoinSecret?: string;
}

/** Where a silent link is worth a reconnect: the batch was accepted and is not complete. */
const RECONNECTABLE_RECEIVE: ReadonlySet<ReceiverState['phase']> = new Set([
  'awaiting-metadata',
  'checking-space',
  'opening',
  'receiving',
  'awaiting-digest',
]);

class ReceiveSession {
  readonly finished: Promise<ReceiveSessionEnd>;
  readonly #config: ReceiveSessionConfig;
  readonly #channel: ChannelPort;
  /** A native receiver's control frames are binary, a browser's text (docs/protocol.md, "Frame classification"). */
  readonly #framing: 'binary' | 'text';
  readonly #chassis: SessionChassis;
  readonly #machine: ReceiverMachine;
  /** Announced beside `pair`; drawn afresh for each connection. */
  readonly #pairShare: string | undefined;
  readonly #timers: SessionTimers<ReceiverTimer>;
  readonly #progress: ProgressMeter;
  readonly #written = new Map<number, number>();
  readonly #saved: DeliveredFileView[] = [];
  #target: SaveTarget | undefined;
  /** Where a text message went instead of the target (docs/protocol.md, "Text messages"). */
  #text: TextTarget | undefined;
  #queue: Promise<void> = Promise.resolve();
  /** Set once storage failed outside any file the machine still tracks; the queue stops there. */
  #storageFailure: SessionFailure | undefined;
  #received: number | undefined;
  #travelled = 0;
  /** Each open file's digest, when the sender verifies. */
  readonly #digests = new Map<number, FileDigest>();
  readonly #resumed = new Map<number, number>();
  /**
   * Raised when a file fails its digest: queued steps of before then, which assumed it would be
   * committed (the next ack, `received`), are dropped, and only the abort's own steps run.
   */
  #generation = 0;
  #started = false;
  #channelClosed!: () => void;
  #closed = false;

  constructor(config: ReceiveSessionConfig) {
    this.#config = config;
    const { clock, acceptance } = config;
    const channel =
      config.lanes === undefined
        ? config.channel
        : new LaneReceiver(
            config.channel,
            // Read as each offer comes: by then the sender's caps have been answered.
            { ...config.lanes, agreed: () => this.#machine.agreed.has('lanes') },
            clock,
          );
    this.#channel = channel;
    this.#framing = config.surface === 'native' ? 'binary' : 'text';
    if (!acceptance.ask) this.#target = acceptance.target;
    // This connection's certificates, read once it is open, for the verification words.
    const fingerprints = channel.fingerprints();
    const sasNonce = fingerprints === undefined ? undefined : this.#drawNonce();
    // A share means nothing without the certificates the secret is bound to.
    this.#pairShare =
      fingerprints !== undefined && config.caps?.includes('pair') === true
        ? newPairShare(config.randomBytes)
        : undefined;
    this.#machine = createReceiver({
      surface: config.surface,
      // A target chosen beforehand that cannot keep a partial file rules resume out at once.
      caps:
        !acceptance.ask && acceptance.target.resume === undefined
          ? (capsWithIdentity(config.caps, config.devices) ?? []).filter(
              (cap) => cap !== 'resume' && cap !== 'reconnect',
            )
          : capsWithIdentity(config.caps, config.devices),
      local: config.local,
      remedySurface: config.remedySurface,
      askBeforeAccepting: acceptance.ask,
      // A target chosen by the person says so when it is accepted.
      checksFreeSpace: !acceptance.ask && acceptance.target.freeSpace !== undefined,
      ...(config.keptBytes === undefined ? {} : { keptBytes: config.keptBytes }),
      ...(sasNonce === undefined ? {} : { sasNonce }),
      // A key is held only where this side can prove it: with extensions turned off it announces
      // nothing, so its key could never be used. Nothing the other side does decides this; its
      // silence about `link` is refused (docs/protocol.md, "Secret link").
      holdsLinkSecret: config.linkSecret !== undefined && canProveLink(config),
      ...(config.devices === undefined ? {} : { deviceName: config.devices.ownName }),
      ...(this.#pairShare === undefined ? {} : { pairShare: this.#pairShare }),
    });
    this.#timers = new SessionTimers<ReceiverTimer>(clock, config.timers ?? {}, (timer) =>
      this.#handle({ type: 'timer-fired', timer }),
    );
    this.#progress = new ProgressMeter(
      () => clock.now(),
      (progress) => {
        this.#tellProgress(progress);
        const peerCheck = this.#peerCheck;
        this.#publish({
          phase: 'transferring',
          direction: 'receive',
          progress,
          ...(peerCheck === undefined ? {} : { peerCheck }),
        });
      },
    );
    const closed = new Promise<void>((resolve) => (this.#channelClosed = resolve));
    this.finished = closed
      .then(() => this.#settled())
      .then(() => channel.released)
      .then(() => ({
        received: this.#received,
        travelled: this.#travelled,
        lost: this.#chassis.lost,
        ...(this.#machine.rejoinSecret === undefined
          ? {}
          : { rejoinSecret: this.#machine.rejoinSecret }),
        target: this.#target,
        kept: this.#chassis.kept,
      }));
    this.#chassis = new SessionChassis(
      {
        ...config,
        channel,
        fingerprints,
        framing: this.#framing,
      },
      {
        frame: (frame) => this.#handle({ type: 'frame', frame }),
        bufferedAmountLow: () => this.#chassis.buffer.wake(),
        closed: () => this.#onChannelClosed(),
        // After completion a cancel only closes the channel: the files are already saved.
        cancel: () => {
          if (this.#machine.state.phase === 'done') this.#channel.close(0);
          else this.#handle({ type: 'cancel' });
        },
        // The batch was accepted and is not complete: what arrived is kept for the next try.
        reconnectable: () => RECONNECTABLE_RECEIVE.has(this.#machine.state.phase),
      },
    );
    void this.finished.then(() => this.#chassis.release());
    this.#chassis.start(() => this.#handle({ type: 'channel-open' }));
  }

  #handle(event: ReceiverEvent): void {
    for (const action of this.#machine.handle(event)) this.#carryOut(action);
    this.#watchLink();
  }

  /** A fresh nonce for this connection, when `sas` is spoken and the connection tells its certificates. */
  #drawNonce(): string | undefined {
    const { randomBytes, caps } = this.#config;
    if (randomBytes === undefined || caps?.includes('sas') !== true) return undefined;
    try {
      return newNonce(randomBytes);
    } catch {
      // A broken random source offers no words: the transfer goes on unverified, and says so.
      return undefined;
    }
  }

  /**
   * The words, with the sender's fingerprint first (here the remote one), and the hash of the
   * sender's revealed nonce for the machine to hold against its commitment.
   */
  #deriveWords(senderNonce: string, receiverNonce: string): void {
    const words = this.#chassis.words('receiver', senderNonce, receiverNonce);
    if (words === undefined) return;
    Promise.all([words, commitmentTo(senderNonce)]).then(
      ([derived, revealedCommit]) =>
        this.#handle({ type: 'words-derived', words: derived, revealedCommit }),
      (error: unknown) => this.#handle({ type: 'words-failed', detail: String(error) }),
    );
  }

  /** This side's proof of the link's secret, and the one the sender must have sent. */
  #proveLink(senderNonce: string, receiverNonce: string): void {
    const secret = this.#config.linkSecret;
    this.#chassis.linkProofs('receiver', secret, senderNonce, receiverNonce)?.then(
      ({ own, expected }) => this.#handle({ type: 'link-proved', own, expected }),
      (error: unknown) => this.#handle({ type: 'link-failed', detail: String(error) }),
    );
  }

  /** Once this side's caps and first ack are out, a `reconnect` agreement puts the link on watch. */
  #watchLink(): void {
    const phase = this.#machine.state.phase;
    if (phase === 'done' || phase === 'failed') this.#chassis.link.stop();
    else if (this.#started && reconnects(this.#machine.agreed)) this.#chassis.link.start();
  }

  #carryOut(action: ReceiverAction): void {
    switch (action.type) {
      case 'set-timer':
      case 'clear-timer':
        this.#timers.apply(action);
        return;
      case 'progress': {
        const state = this.#machine.state;
        this.#written.set(action.index, action.fileBytes);
        const fileResumed = this.#resumed.get(action.index);
        let resumed = 0;
        for (const bytes of this.#resumed.values()) resumed += bytes;
        this.#progress.record({
          ...(fileResumed === undefined ? {} : { fileResumedBytes: fileResumed }),
          ...(resumed === 0 ? {} : { resumedBytes: resumed }),
          ...(this.#machine.agreed.has('resume') ? { keepsPartial: true } : {}),
          fileIndex: action.index + 1,
          fileCount: action.total,
          fileName: state.phase === 'receiving' ? state.path : '',
          fileBytes: action.fileBytes,
          fileSize: action.fileSize,
          bytesDone: action.bytesDone,
          totalBytes: action.totalBytes,
        });
        return;
      }
      case 'ask-accept':
        this.#ask(action.offer);
        return;
      case 'derive-words':
        this.#deriveWords(action.senderNonce, action.receiverNonce);
        return;
      case 'prove-link':
        this.#proveLink(action.senderNonce, action.receiverNonce);
        return;
      case 'read-free-space':
        this.#enqueue(async (target) => {
          // A reading that fails checks nothing: a full disk still fails the write (ERR_DISK).
          const read = await target.freeSpace?.().catch(() => undefined);
          this.#handle({
            type: 'free-space',
            index: action.index,
            freeBytes: read?.freeBytes,
            ...(read === undefined ? {} : { reserveBytes: freeSpaceReserve(read.volumeBytes) }),
            ...(target.folder === undefined ? {} : { folder: target.folder }),
          });
        });
        return;
      case 'open-part':
        this.#written.set(action.index, 0);
        // A text message is shown, not saved: it goes to memory whatever target was chosen.
        if (action.text === true) {
          this.#text = textTarget();
          this.#target = this.#text;
        }
        this.#enqueue((target) => this.#open(target, action));
        return;
      case 'write': {
        const { index, bytes } = action;
        this.#travelled += bytes.byteLength;
        this.#enqueue(async (target) => this.#write(target, index, bytes));
        return;
      }
      case 'restart-part':
        this.#resumed.delete(action.index);
        this.#enqueue(async (target) => {
          await target.restart?.(action.index);
          if (this.#digests.has(action.index)) this.#startDigest(target, action.index, []);
        });
        return;
      case 'file-resumed':
        this.#resumed.set(action.index, action.offset);
        return;
      case 'commit':
        this.#enqueue((target) => this.#commit(target, action.index, action.sha256));
        return;
      case 'discard':
        this.#enqueue((target) => target.discard(action.index, action.keep), 'tidy');
        return;
      case 'send':
        this.#enqueue(async () => {
          this.#channel.send(action.frame);
          // Caps asking for the file list precede the person's answer: nothing has started.
          if (this.#started || action.early === true) return;
          this.#started = true;
          this.#config.started(reconnects(this.#machine.agreed));
          this.#watchLink();
        }, 'without-target');
        return;
      case 'complete':
        this.#enqueue(async () => {
          this.#received = action.bytes;
          this.#publish({
            phase: 'done',
            direction: 'receive',
            files: [...this.#saved],
            totalBytes: action.bytes,
            ...(this.#target?.folder === undefined ? {} : { folder: this.#target.folder }),
            ...(action.verified === undefined ? {} : { verified: action.verified }),
            ...this.#peer(),
            ...(this.#text?.text === undefined ? {} : { text: this.#text.text }),
          });
        });
        return;
      case 'fail':
        this.#timers.clearAll();
        this.#publish({
          phase: 'failed',
          direction: 'receive',
          code: action.code,
          message: action.message,
        });
        return;
      case 'close':
        // An abort reason may still be on its way; the sender closing its side says it landed.
        this.#enqueue(() => this.#chassis.close(action.flushMs, action.flushMs > 0), 'tidy');
        return;
    }
  }

  /** The machine's check, naming the other device when it is remembered here. */
  get #peerCheck(): PeerCheck | undefined {
    return this.#chassis.check(this.#machine.peerCheck);
  }

  #peer(): { peer?: PeerSummary } {
    const release = this.#machine.peerRelease;
    const program = release === undefined ? undefined : peerProgram(release.ver);
    const pair = {
      role: 'receiver',
      own: this.#pairShare,
      peer: this.#machine.peerPairShare,
    } as const;
    return this.#chassis.peer(this.#peerCheck, this.#machine.peerName, program, pair);
  }

  #ask(offer: Offer): void {
    const { acceptance } = this.#config;
    if (!acceptance.ask) return;
    const view: OfferView = {
      firstFileName: offer.fileName,
      fileCount: offer.total,
      totalBytes: offer.totalBytes,
      // The machine knows it before it asks; unverified is what it would say otherwise.
      peerCheck: this.#peerCheck ?? { kind: 'unverified' },
    };
    if (offer.sender.ver !== undefined) view.senderVersion = offer.sender.ver;
    if (offer.files !== undefined)
      view.files = offerFileViews(offer.files, this.#config.system ?? 'unknown');
    if (offer.text === true) view.textMessage = true;
    const quick = acceptance.withoutAsking?.(view);
    const chosen =
      quick !== undefined
        ? Promise.resolve(quick)
        : acceptance.destination(view).then((destination) => {
            // The question is open before the prompt shows, so an answer to it always finds it.
            const choice = acceptance.choose(view);
            this.#publish({
              phase: 'awaiting-acceptance',
              direction: 'receive',
              offer: view,
              destination,
            });
            return choice;
          });
    chosen.then(
      (target) => {
        this.#target = target;
        this.#handle(
          target === undefined
            ? { type: 'declined' }
            : {
                type: 'accepted',
                resumable: target.resume !== undefined,
                checksFreeSpace: target.freeSpace !== undefined,
              },
        );
      },
      (error: unknown) => {
        // Nothing was acknowledged yet: decline, and say why rather than "declined".
        this.#publish({ phase: 'failed', direction: 'receive', ...toFailure(error, 'ERR_DISK') });
        this.#handle({ type: 'declined', unable: true });
      },
    );
  }

  /**
   * Opens the file, looking for what an earlier try left when the machine asks; tells the
   * machine what was found (docs/protocol.md, "Resume").
   */
  async #open(target: SaveTarget, action: Extract<ReceiverAction, { type: 'open-part' }>) {
    const { index, path, fileSize, resume } = action;
    const verifying = this.#machine.agreed.has('verify');
    if (resume === undefined) {
      await target.open(index, path, fileSize);
      if (verifying) this.#startDigest(target, index, []);
      return;
    }
    const found =
      target.resume === undefined
        ? await target.open(index, path, fileSize).then(() => ({ offset: 0, blocks: [] }))
        : await target.resume(index, path, fileSize, resume.senderFileId);
    if (verifying) this.#startDigest(target, index, found.blocks);
    const prefix = found.offset > 0 ? await digestOfBlocks(found.blocks) : undefined;
    if (found.offset > 0) this.#written.set(index, found.offset);
    this.#handle(
      prefix === undefined
        ? { type: 'part-opened', index, offset: 0 }
        : { type: 'part-opened', index, offset: found.offset, prefix },
    );
  }

  /** A new digest for file `index`, carried on from `blocks`; each full block goes to the target. */
  #startDigest(target: SaveTarget, index: number, blocks: Uint8Array[]): void {
    this.#digests.set(
      index,
      new FileDigest(
        blocks,
        (block, digest) => target.recordBlock?.(index, block, digest),
        this.#config.incrementalSha256,
        this.#config.blockSha256,
      ),
    );
  }

  /** Hands the bytes over in order; their storing (or its failure) is reported when it settles. */
  #write(target: SaveTarget, index: number, bytes: Uint8Array): void {
    const count = bytes.byteLength;
    // Hashed after the target took them, so a block is recorded only behind its own bytes.
    void this.#digests.get(index)?.update(bytes);
    target.write(index, bytes).then(
      () => this.#handle({ type: 'bytes-written', bytes: count }),
      (error: unknown) => {
        // Only while the machine is still on this file; past it, its commit reports the failure.
        if (this.#receiving(index))
          this.#handle({ type: 'write-failed', detail: errorMessage(error) });
      },
    );
  }

  /**
   * Gives the file its final name, after checking its digest when the sender sent one: a file
   * that does not match is discarded, and the steps queued behind it are dropped.
   */
  async #commit(target: SaveTarget, index: number, sha256: string | undefined): Promise<void> {
    const digest = this.#digests.get(index);
    this.#digests.delete(index);
    if (sha256 !== undefined && (await digest?.finish()) !== sha256) {
      await target.discard(index, false);
      this.#generation += 1;
      this.#handle({ type: 'verify-failed', index });
      return;
    }
    const saved = await target.commit(index);
    const file: DeliveredFileView = { ...saved, size: this.#written.get(index) ?? 0 };
    const resumed = this.#resumed.get(index);
    if (resumed !== undefined) file.resumedBytes = resumed;
    if (sha256 !== undefined) file.verified = true;
    this.#saved.push(file);
  }

  /**
   * Runs `step` after everything queued before it. A failing step goes to the machine while it
   * still receives that file (it discards it and tells the sender); past it, the batch stops here
   * with ERR_DISK. After that only steps that tidy up run. A `without-target` step (a frame)
   * runs before anything was accepted too, but is dropped with the rest of a dropped generation;
   * a `tidy` step always runs.
   */
  /**
   * With `progress` agreed the sender is told each step this side shows, so its screen shows the
   * same file and bytes one report later (docs/protocol.md, "Progress"). It goes at once, beside
   * the write queue: it says what arrived, as this side's own screen does.
   */
  #tellProgress(progress: ProgressView): void {
    if (!this.#machine.agreed.has('progress')) return;
    const message = {
      type: 'ferry-progress',
      index: progress.fileIndex,
      bytes: progress.fileBytes,
    } as const;
    this.#channel.send(encodeMessage(message, this.#framing));
  }

  #enqueue(
    step: (target: SaveTarget) => Promise<void>,
    kind: 'storage' | 'without-target' | 'tidy' = 'storage',
  ): void {
    const generation = this.#generation;
    this.#queue = this.#queue.then(async () => {
      const target = this.#target;
      if (kind !== 'tidy' && generation !== this.#generation) return;
      if (this.#storageFailure !== undefined && kind === 'storage') return;
      try {
        if (target !== undefined) await step(target);
        else if (kind !== 'storage') await step(NO_TARGET);
      } catch (error) {
        const phase = this.#machine.state.phase;
        if (phase === 'receiving' || phase === 'opening') {
          this.#handle({ type: 'write-failed', detail: errorMessage(error) });
        } else await this.#abandon(SessionFailure.withDetail('ERR_DISK', errorMessage(error)));
      }
    });
  }

  #receiving(index: number): boolean {
    const state = this.#machine.state;
    return state.phase === 'receiving' && state.index === index;
  }

  async #abandon(failure: SessionFailure): Promise<void> {
    if (this.#storageFailure !== undefined) return;
    this.#storageFailure = failure;
    // Frames queued behind the failure (the next ack, `received`) would tell the sender otherwise.
    this.#generation += 1;
    this.#publish({ phase: 'failed', direction: 'receive', ...failure.failure });
    const state = this.#machine.state;
    if (this.#target !== undefined && state.phase === 'receiving') {
      await this.#target.discard(state.index).catch(() => undefined);
    }
    this.#timers.clearAll();
    this.#channel.close(0);
  }

  /** Waits until the queue is empty, including steps queued while waiting. */
  async #settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.#queue;
      await seen;
    } while (seen !== this.#queue);
  }

  /** A failure carries what arrived whole before it and who sent it, for the history. */
  #publish(view: TransferView): void {
    this.#chassis.publish(
      view.phase === 'failed' ? { ...view, arrived: [...this.#saved], ...this.#peer() } : view,
    );
  }

  #onChannelClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#chassis.link.stop();
    this.#handle({ type: 'channel-closed' });
    this.#chassis.buffer.wake();
    this.#enqueue(async () => {
      this.#timers.clearAll();
      this.#channel.close(0);
    }, 'tidy');
    this.#channelClosed();
  }
}

/** Steps that must run before anything was accepted (a frame, a close) need no storage. */
const NO_TARGET: SaveTarget = {
  open: () => Promise.reject(new Error('nothing was accepted')),
  write: () => Promise.reject(new Error('nothing was accepted')),
  commit: () => Promise.reject(new Error('nothing was accepted')),
  discard: () => Promise.resolve(),
};

/** Whether this runtime can speak `link` at all: it offers `sas` and `link` and draws nonces. */
function canProveLink(config: ReceiveSessionConfig): boolean {
  const { caps, randomBytes } = config;
  return randomBytes !== undefined && caps?.includes('sas') === true && caps.includes('link');
}
