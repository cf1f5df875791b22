import { binaryFrame } from '../protocol/frame';
import type { Surface } from '../protocol/frame-classification';
import {
  BROWSER_METADATA_DRAIN_BYTES,
  SEND_BUFFER_HIGH_WATER_BYTES,
  SEND_BUFFER_LOW_WATER_BYTES,
} from '../protocol/limits';
import {
  createSender,
  type SenderAction,
  type SenderEvent,
  type SenderFile,
  type SenderMachine,
  type SenderState,
  type SenderTimer,
} from '../protocol/sender';
import type { Capability } from '../protocol/messages';
import { VERIFY_BLOCK_BYTES } from '../protocol/limits';
import type { PeerVersion } from '../protocol/version-negotiation';
import type { RemedySurface } from '../protocol/version-remedy';
import type {
  DeliveredFileView,
  PeerCheck,
  PeerSummary,
  TransferView,
} from '../transfer/transfer-view';
import { capsWithIdentity, type DeviceSetting } from '../devices/peer-identity';
import { peerProgram } from '../devices/peer-program';
import { digestOfBlocks, FileDigest } from '../verify/file-digest';
import type { BlockSha256, IncrementalSha256Factory } from '../verify/hash-functions';
import { commitmentTo, newNonce } from '../verify/sas';
import type { ChannelBuffer } from './channel-buffer';
import { chunkSizeFor } from './chunk-plan';
import type { FileSource, SourceReader } from './file-source';
import type { ChannelPort, Clock } from './ports';
import { ProgressMeter } from './progress-meter';
import { reconnects, type KeptBytes } from './link-watch';
import { newRejoinSecret } from './reconnect';
import { newPairShare } from '../nearby/pair-secret';
import type { LaneOptions } from './lanes/lane-options';
import { LaneSender } from './lanes/lane-sender';
import { SessionChassis } from './session-chassis';
import { SessionTimers } from './session-timers';

export interface SendSessionConfig {
  channel: ChannelPort;
  /**
   * Where the runtime can make more connections: with `lanes` agreed the batch is striped over
   * them (docs/protocol.md, "Lanes"). Without it the channel is used as it is.
   */
  lanes?: LaneOptions;
  clock: Clock;
  surface: Surface;
  sources: readonly FileSource[];
  /** What the metadata announces for each source; the sources themselves unless a test lies. */
  announced: readonly SenderFile[];
  /** The runtime's incremental SHA-256, where it has one (hash-functions.ts); else WebCrypto or JS. */
  incrementalSha256?: IncrementalSha256Factory;
  /** Where the runtime hashes whole blocks off its thread (a page without WebCrypto: workers). */
  blockSha256?: BlockSha256;
  /** Ferry's extensions to offer (docs/protocol.md, "Capabilities"); empty for the spec's wire alone. */
  caps?: readonly Capability[];
  /**
   * The runtime's secure random source, for the `sas` nonce drawn for each connection; without
   * it no verification words are offered (docs/protocol.md, "Verification words").
   */
  randomBytes?: (count: number) => Uint8Array;
  /**
   * Asked once the other device's check is known (its words, or that it has none); no file data
   * leaves before the answer, and false stops the transfer. Without it nothing waits for a person.
   */
  confirmPeer?: (check: PeerCheck) => Promise<boolean>;
  /**
   * The secret this code's receive link carries (docs/protocol.md, "Secret link"); with it `link`
   * is offered, and a receiver opened from the link proves it holds the same.
   */
  linkSecret?: string;
  /** This installation's name and remembered devices (docs/protocol.md, "Remembered devices"). */
  devices?: DeviceSetting;
  /**
   * The one source is this text message (`textSource`; docs/protocol.md, "Text messages"): the
   * receiver is told so, and the views name it.
   */
  text?: string;
  local: PeerVersion;
  remedySurface: RemedySurface;
  /** The code the receiver used, for the "waiting for acceptance" view. */
  code: string;
  publish(view: TransferView): void;
  cancelled: AbortSignal;
  /**
   * Called once the first ack or incompatible has arrived: the transfer has started on both
   * ends. `reconnectable`: a lost link would be restored (docs/protocol.md, "Reconnect").
   */
  started(reconnectable: boolean): void;
  /** Tests shorten the machine's timers by name. */
  timers?: Partial<Record<SenderTimer, number>>;
  /** The batch goes on after a lost link: the receiver accepted it already. */
  continuing?: boolean;
  /** How long an abort reason or a closing channel may take to land (docs/protocol.md, "Aborts with a reason", "End of batch"). */
  flushMs?: number;
  closeGraceMs?: number;
}

/** How a send session ended; its outcome is published, except a lost link's. */
export interface SendSessionEnd {
  /**
   * The link went silent mid-batch between peers that agreed `reconnect`: nothing was published,
   * and the flow may connect again and send the batch anew (docs/protocol.md, "Reconnect").
   */
  lost: boolean;
  /** How far the batch got, as its progress last said: what a reconnect keeps. */
  kept: KeptBytes;
  /** The secret announced beside `reconnect`, when it was agreed: see SessionEndForReconnect. */
  rejoinSecret?: string;
}

/**
 * Drives the protocol's sender machine over an open channel, on every surface: it carries out the
 * machine's actions (frames in order, file streaming with the 8 MiB / 4 MiB flow control, timers,
 * close) and feeds back what the channel, the files and the clock do. Resolves once the channel is
 * closed and let go, by then with the outcome published unless the link was lost.
 */
export async function runSendSession(config: SendSessionConfig): Promise<SendSessionEnd> {
  // Without the connection's certificates there are no words to derive.
  const fingerprints = config.channel.fingerprints();
  const sas = fingerprints === undefined ? undefined : await sasSecret(config);
  return new SendSession(config, sas).finished;
}

interface SasSecret {
  nonce: string;
  commit: string;
}

/** This connection's nonce and the commitment to it, when `sas` is offered; drawn afresh each time. */
async function sasSecret(config: SendSessionConfig): Promise<SasSecret | undefined> {
  const { randomBytes, caps } = config;
  if (randomBytes === undefined || caps?.includes('sas') !== true) return undefined;
  try {
    const nonce = newNonce(randomBytes);
    return { nonce, commit: await commitmentTo(nonce) };
  } catch {
    // Without a digest no words can be shown: the transfer goes on unverified, and says so.
    return undefined;
  }
}

/** Where a silent link is worth a reconnect: the batch is under way and the receiver still needs us. */
const RECONNECTABLE_SEND: ReadonlySet<SenderState['phase']> = new Set([
  'awaiting-ack',
  'checking-prefix',
  'streaming',
]);

class SendSession {
  readonly finished: Promise<SendSessionEnd>;
  readonly #config: SendSessionConfig;
  readonly #channel: ChannelPort;
  /** The channel as `lanes` widens it, when this runtime can (docs/protocol.md, "Lanes"). */
  readonly #bond: LaneSender | undefined;
  readonly #chassis: SessionChassis;
  readonly #machine: SenderMachine;
  readonly #timers: SessionTimers<SenderTimer>;
  readonly #progress: ProgressMeter;
  readonly #chunkBytes: number;
  readonly #totalBytes: number;
  /** Frames and the close keep the machine's order, even when a browser waits to send one. */
  #queue: Promise<void> = Promise.resolve();
  #watchingBuffer = false;
  #started = false;
  /** Whether the first connection's route is relayed, once its channel opened. */
  #relayed: boolean | undefined;
  #finish: (end: SendSessionEnd) => void = () => undefined;
  #closed = false;
  /** Digests of the blocks before a resume offset, from the prefix check, for the stream to go on from. */
  readonly #prefixes = new Map<number, { offset: number; blocks: Uint8Array[] }>();
  readonly #resumed = new Map<number, number>();
  readonly #verified = new Set<number>();
  /** Announced beside `reconnect`; drawn afresh for each connection. */
  readonly #rejoinSecret: string | undefined;
  /** Announced beside `pair`; drawn afresh for each connection. */
  readonly #pairShare: string | undefined;
  #peerCheck: PeerCheck | undefined;

  constructor(config: SendSessionConfig, sas: SasSecret | undefined) {
    this.#config = config;
    this.#rejoinSecret = config.caps?.includes('reconnect')
      ? newRejoinSecret(config.randomBytes)
      : undefined;
    this.#pairShare =
      config.caps?.includes('pair') === true && config.channel.fingerprints() !== undefined
        ? newPairShare(config.randomBytes)
        : undefined;
    const { clock } = config;
    this.#bond =
      config.lanes === undefined ? undefined : new LaneSender(config.channel, config.lanes, clock);
    const channel = this.#bond ?? config.channel;
    this.#channel = channel;
    this.#chunkBytes = chunkSizeFor(channel.maxMessageSize(), config.surface);
    this.#totalBytes = config.sources.reduce((sum, file) => sum + file.size, 0);
    this.#machine = createSender({
      files: config.announced,
      caps: capsWithIdentity(config.caps, config.devices),
      ...(config.devices === undefined ? {} : { deviceName: config.devices.ownName }),
      ...(config.text === undefined ? {} : { textMessage: true }),
      ...(sas === undefined ? {} : { sas: { nonce: sas.nonce, commit: sas.commit } }),
      confirmsPeer: config.confirmPeer !== undefined,
      holdsLinkSecret: config.linkSecret !== undefined,
      ...(this.#rejoinSecret === undefined ? {} : { rejoinSecret: this.#rejoinSecret }),
      ...(this.#pairShare === undefined ? {} : { pairShare: this.#pairShare }),
      local: config.local,
      surface: config.surface,
      remedySurface: config.remedySurface,
    });
    this.#timers = new SessionTimers<SenderTimer>(clock, config.timers ?? {}, (timer) =>
      this.#timerDue(timer),
    );
    this.#progress = new ProgressMeter(
      () => clock.now(),
      (progress) =>
        this.#publish({
          phase: 'transferring',
          direction: 'send',
          progress,
          ...(this.#peerCheck === undefined ? {} : { peerCheck: this.#peerCheck }),
          ...(config.text === undefined ? {} : { text: config.text }),
        }),
    );
    this.finished = new Promise<SendSessionEnd>((resolve) => (this.#finish = resolve));
    this.#chassis = new SessionChassis(
      { ...config, channel, framing: 'text', fingerprints: config.channel.fingerprints() },
      {
        frame: (frame) => this.#handle({ type: 'frame', frame }),
        bufferedAmountLow: () => this.#bufferLow(),
        closed: () => this.#channelClosed(),
        cancel: () => this.#handle({ type: 'cancel' }),
        // Mid-batch, while the receiver still needs this side.
        reconnectable: () => RECONNECTABLE_SEND.has(this.#machine.state.phase),
      },
    );
    void this.finished.then(() => this.#chassis.release());

    if (config.continuing !== true) {
      this.#publish({ phase: 'waiting-for-acceptance', direction: 'send', code: config.code });
    }
    this.#chassis.start(() => {
      const open = (relayed: boolean): void => {
        this.#relayed = relayed;
        this.#handle({ type: 'channel-open', relayed });
      };
      // A route the stack cannot describe is taken as direct: only the relay cap depends on it.
      channel.relayed().then(open, () => open(false));
    });
  }

  get #buffer(): ChannelBuffer {
    return this.#chassis.buffer;
  }

  get #active(): boolean {
    const phase = this.#machine.state.phase;
    return phase !== 'done' && phase !== 'failed';
  }

  #handle(event: SenderEvent): void {
    const before = this.#machine.state;
    const actions = this.#machine.handle(event);
    // Shown before any action is carried out, so before the first byte of file data.
    this.#notePeerCheck();
    for (const action of actions) this.#carryOut(action);
    if (!this.#started && event.type === 'frame' && startedBy(before, this.#machine.state)) {
      this.#started = true;
      this.#config.started(reconnects(this.#machine.agreed));
    }
    // Lanes open while the receiver decides, so the first file's data can already take turns.
    if (this.#machine.agreed.has('lanes')) {
      this.#bond?.widen({
        bytes: this.#totalBytes,
        relayed: this.#relayed,
        probe: this.#machine.agreed.has('lane-mtu'),
      });
    }
    // The receiver's caps come before its first ack, so once started the agreement is known.
    if (this.#started && this.#active && reconnects(this.#machine.agreed)) {
      this.#chassis.link.start();
    }
    if (!this.#active) this.#chassis.link.stop();
  }

  /**
   * The moment the machine knows the peer check, the person sees it beside "waiting for the
   * other person", and is asked when a person confirms (docs/protocol.md, "Verification words").
   */
  #notePeerCheck(): void {
    const check = this.#chassis.check(this.#machine.peerCheck);
    if (check === undefined || this.#peerCheck !== undefined) return;
    this.#peerCheck = check;
    if (this.#config.continuing !== true) {
      const { code } = this.#config;
      this.#publish({ phase: 'waiting-for-acceptance', direction: 'send', code, peerCheck: check });
    }
    const confirm = this.#config.confirmPeer;
    if (confirm === undefined) return;
    // A remembered device was verified when it was remembered: nothing to compare.
    if (check.kind === 'device') {
      this.#handle({ type: 'peer-confirmed' });
      return;
    }
    confirm(check).then(
      (confirmed) => this.#handle({ type: confirmed ? 'peer-confirmed' : 'peer-rejected' }),
      () => this.#handle({ type: 'peer-rejected' }),
    );
  }

  #peer(): { peer?: PeerSummary } {
    const check = this.#peerCheck ?? this.#chassis.check({ kind: 'unverified' });
    const release = this.#machine.peerRelease;
    const program = release === undefined ? undefined : peerProgram(release.ver);
    const pair = {
      role: 'sender',
      own: this.#pairShare,
      peer: this.#machine.peerPairShare,
    } as const;
    return this.#chassis.peer(check, this.#machine.peerName, program, pair);
  }

  #carryOut(action: SenderAction): void {
    switch (action.type) {
      case 'set-timer':
      case 'clear-timer':
        this.#timers.apply(action);
        return;
      case 'stream-file':
        this.#stream(action.index, action.offset).catch((error: unknown) =>
          this.#handle({ type: 'source-unreadable', index: action.index, detail: String(error) }),
        );
        return;
      case 'check-prefix':
        this.#checkPrefix(action.index, action.offset, action.prefix).then(
          (match) => this.#handle({ type: 'prefix-checked', index: action.index, match }),
          (error: unknown) =>
            this.#handle({ type: 'source-unreadable', index: action.index, detail: String(error) }),
        );
        return;
      case 'derive-words':
        this.#chassis.words('sender', action.senderNonce, action.receiverNonce)?.then(
          (words) => this.#handle({ type: 'words-derived', words }),
          (error: unknown) => this.#handle({ type: 'words-failed', detail: String(error) }),
        );
        return;
      case 'prove-link': {
        const { senderNonce, receiverNonce } = action;
        const secret = this.#config.linkSecret;
        this.#chassis.linkProofs('sender', secret, senderNonce, receiverNonce)?.then(
          ({ own, expected }) => this.#handle({ type: 'link-proved', own, expected }),
          (error: unknown) => this.#handle({ type: 'link-failed', detail: String(error) }),
        );
        return;
      }
      case 'file-resumed':
        this.#resumed.set(action.index, action.offset);
        return;
      case 'file-verified':
        this.#verified.add(action.index);
        return;
      case 'peer-progress':
        this.#record(action.index, action.bytes);
        return;
      case 'watch-buffer':
        this.#watchBuffer();
        return;
      case 'complete': {
        const files = this.#config.sources.map((file, index) => this.#delivered(file, index));
        this.#publish({
          phase: 'done',
          direction: 'send',
          files,
          totalBytes: action.bytes,
          ...(action.confirmed === undefined ? {} : { confirmed: action.confirmed }),
          ...(action.verified === undefined ? {} : { verified: action.verified }),
          ...this.#peer(),
          ...(this.#config.text === undefined ? {} : { text: this.#config.text }),
        });
        return;
      }
      case 'fail':
        this.#publish({
          phase: 'failed',
          direction: 'send',
          code: action.code,
          message: action.message,
        });
        return;
      case 'send':
      case 'close':
        this.#queue = this.#queue.then(() => this.#perform(action));
        return;
    }
  }

  async #perform(action: Extract<SenderAction, { type: 'send' | 'close' }>): Promise<void> {
    if (action.type === 'send') {
      // A browser drains below 64 KiB before each metadata (docs/protocol.md, "Flow control"); every text frame of
      // a running batch waits the same way, which costs nothing for `end`.
      if (this.#config.surface === 'browser' && action.frame.kind === 'text' && this.#active) {
        await this.#buffer.below(BROWSER_METADATA_DRAIN_BYTES);
      }
      this.#channel.send(action.frame);
      return;
    }
    const landing = action.flushMs > 0 || this.#machine.state.phase === 'done';
    await this.#chassis.close(action.flushMs, landing);
  }

  #delivered(file: FileSource, index: number): DeliveredFileView {
    const view: DeliveredFileView = { name: file.name, size: file.size };
    const resumed = this.#resumed.get(index);
    if (resumed !== undefined) view.resumedBytes = resumed;
    if (this.#machine.agreed.has('verify')) view.verified = this.#verified.has(index);
    return view;
  }

  /**
   * Hashes `[0, offset)` of the file as it is now and compares it with the receiver's prefix
   * digest (docs/protocol.md, "Resume"). The blocks are kept, so the stream goes on from them.
   */
  async #checkPrefix(index: number, offset: number, prefix: string): Promise<boolean> {
    const blocks = await this.#hashPrefix(index, offset);
    if (blocks === undefined) return false;
    const match = (await digestOfBlocks(blocks)) === prefix;
    if (match) this.#prefixes.set(index, { offset, blocks });
    return match;
  }

  /** The block digests of `[0, offset)`: whole blocks, the last one short only at the file's end. */
  async #hashPrefix(index: number, offset: number): Promise<Uint8Array[] | undefined> {
    const reader = await this.#config.sources[index].open(0, VERIFY_BLOCK_BYTES);
    if ('kind' in reader) return undefined;
    try {
      const digest = new FileDigest(
        [],
        undefined,
        this.#config.incrementalSha256,
        this.#config.blockSha256,
      );
      let position = 0;
      while (position < offset) {
        const read = await reader.next();
        if (read.kind !== 'bytes') return undefined;
        const wanted = read.bytes.subarray(0, offset - position);
        await digest.update(wanted);
        position += wanted.byteLength;
      }
      if (offset % VERIFY_BLOCK_BYTES === 0) return await digest.sealedBlocks();
      await digest.finish();
      return await digest.sealedBlocks();
    } finally {
      await reader.close();
    }
  }

  /** A digest of the file for a verifying receiver, carried on from the checked prefix. */
  async #digestFrom(index: number, offset: number): Promise<FileDigest | undefined> {
    if (!this.#machine.agreed.has('verify')) return undefined;
    if (offset === 0)
      return new FileDigest(
        [],
        undefined,
        this.#config.incrementalSha256,
        this.#config.blockSha256,
      );
    const prefix = this.#prefixes.get(index);
    const blocks =
      prefix?.offset === offset ? prefix.blocks : await this.#hashPrefix(index, offset);
    if (blocks === undefined) throw new Error('the file could not be read again');
    return new FileDigest(
      blocks,
      undefined,
      this.#config.incrementalSha256,
      this.#config.blockSha256,
    );
  }

  async #stream(index: number, offset: number): Promise<void> {
    const source = this.#config.sources[index];
    const stillStreaming = (): boolean => {
      const state = this.#machine.state;
      return state.phase === 'streaming' && state.index === index;
    };
    const opened = await source.open(offset, this.#chunkBytes);
    if ('kind' in opened) {
      this.#handle({ type: 'source-unreadable', index, detail: opened.detail });
      return;
    }
    try {
      await this.#pump(opened, index, offset, stillStreaming);
    } finally {
      await opened.close();
    }
  }

  /** Sends the file chunk by chunk, pausing above the high-water mark until below the low one. */
  async #pump(
    reader: SourceReader,
    index: number,
    offset: number,
    stillStreaming: () => boolean,
  ): Promise<void> {
    const changedBefore = await reader.change();
    if (changedBefore !== undefined) {
      this.#handle({ type: 'source-changed', index, detail: changedBefore });
      return;
    }
    const digest = await this.#digestFrom(index, offset);
    let position = offset;
    this.#report(index, position, offset);
    while (!reader.done && stillStreaming()) {
      if (this.#channel.bufferedAmount() > SEND_BUFFER_HIGH_WATER_BYTES) {
        this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
        await this.#buffer.below(SEND_BUFFER_LOW_WATER_BYTES, stillStreaming);
        if (!stillStreaming()) return;
        this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
      }
      const read = await reader.next();
      if (!stillStreaming()) return;
      if (read.kind !== 'bytes') {
        const type = read.kind === 'changed' ? 'source-changed' : 'source-unreadable';
        this.#handle({ type, index, detail: read.detail });
        return;
      }
      // A refused send means the channel is gone; its close event ends the machine.
      if (!this.#channel.send(binaryFrame(read.bytes))) return;
      position += read.bytes.byteLength;
      this.#report(index, position, offset);
      // Hashing runs beside the network; only a backlog of blocks makes the stream wait for it.
      const hashing = digest?.update(read.bytes);
      if (hashing !== undefined) await hashing;
    }
    if (!stillStreaming()) return;
    const changedAfter = await reader.change();
    const sha256 = await digest?.finish();
    if (!stillStreaming()) return;
    if (changedAfter !== undefined) {
      this.#handle({ type: 'source-changed', index, detail: changedAfter });
    } else {
      this.#handle(
        sha256 === undefined
          ? { type: 'file-streamed', index }
          : { type: 'file-streamed', index, digest: sha256 },
      );
    }
  }

  /**
   * What the sender shows is what the receiver has taken (docs/protocol.md, "Progress"): with
   * `progress` agreed, its reports alone move this side's meter, so both screens show the same
   * file and bytes. Without it the specification gives no word within a file, and the nearest
   * thing is what has left this device: the bytes queued less the channel's buffered amount (the
   * acks already keep each file from starting before the receiver has the one before).
   */
  #report(index: number, queued: number, offset: number): void {
    if (this.#machine.agreed.has('progress')) return;
    this.#record(index, Math.max(offset, queued - this.#channel.bufferedAmount()));
  }

  #record(index: number, fileBytes: number): void {
    const file = this.#config.sources[index];
    const before = this.#config.sources.slice(0, index).reduce((sum, f) => sum + f.size, 0);
    const fileResumed = this.#resumed.get(index);
    let resumed = 0;
    for (const bytes of this.#resumed.values()) resumed += bytes;
    this.#progress.record({
      ...(fileResumed === undefined ? {} : { fileResumedBytes: fileResumed }),
      ...(resumed === 0 ? {} : { resumedBytes: resumed }),
      ...(this.#machine.agreed.has('resume') ? { keepsPartial: true } : {}),
      fileIndex: index + 1,
      fileCount: this.#config.sources.length,
      fileName: file.name,
      fileBytes,
      fileSize: file.size,
      bytesDone: before + fileBytes,
      totalBytes: this.#totalBytes,
    });
  }

  /** After the batch every drop of the buffer is reported, its reaching zero included. */
  #watchBuffer(): void {
    this.#watchingBuffer = true;
    this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
    void this.#buffer
      .below(0, () => this.#active)
      .then((empty) => {
        if (empty) this.#handle({ type: 'buffered-amount', bytes: 0 });
      });
  }

  #bufferLow(): void {
    this.#buffer.wake();
    if (this.#watchingBuffer && this.#active) {
      this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
    }
  }

  /**
   * The drain and delivery deadlines mean "no shrink at all": before one fires, the buffer is
   * measured, and a new low re-arms the timer instead.
   */
  #timerDue(timer: SenderTimer): void {
    if (timer === 'drain' || timer === 'delivery') {
      this.#handle({ type: 'buffered-amount', bytes: this.#buffer.bytes });
      if (this.#timers.isRunning(timer) || !this.#active) return;
    }
    this.#handle({ type: 'timer-fired', timer });
  }

  /**
   * A failure carries who was on the other end and, where the receiver verifies, the files it
   * confirmed whole before it (docs/protocol.md, "Verification"), for the history.
   */
  #publish(view: TransferView): void {
    this.#chassis.publish(
      view.phase === 'failed' ? { ...view, ...this.#arrived(), ...this.#peer() } : view,
    );
  }

  /** The files the receiver confirmed by their digests; unknown where it does not verify. */
  #arrived(): { arrived?: DeliveredFileView[] } {
    if (!this.#machine.agreed.has('verify')) return {};
    const { sources } = this.#config;
    return {
      arrived: [...this.#verified]
        .sort((a, b) => a - b)
        .flatMap((index) => {
          const file = sources[index];
          return file === undefined ? [] : [this.#delivered(file, index)];
        }),
    };
  }

  #channelClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#chassis.link.stop();
    this.#handle({ type: 'channel-closed' });
    this.#timers.clearAll();
    this.#buffer.wake();
    this.#channel.close(0);
    void this.#queue
      .then(() => this.#channel.released)
      .then(() =>
        this.#finish({
          lost: this.#chassis.lost,
          kept: this.#chassis.kept,
          ...(this.#machine.agreed.has('reconnect') && this.#rejoinSecret !== undefined
            ? { rejoinSecret: this.#rejoinSecret }
            : {}),
        }),
      );
  }
}

/** The first ack or incompatible has arrived once the machine leaves its first wait for an ack. */
function startedBy(before: SenderState, after: SenderState): boolean {
  return before.phase === 'awaiting-ack' && after !== before;
}
