import { encodeMessage } from '../protocol/encode';
import type { Frame, Framing } from '../protocol/frame';
import type { PeerCheck, PeerSummary, TransferView } from '../transfer/transfer-view';
import type { PeerProgram } from '../devices/peer-program';
import {
  checkWithDevice,
  peerSummary,
  rememberedPeer,
  type DeviceSetting,
} from '../devices/peer-identity';
import type { RememberedDevice } from '../devices/remembered-devices';
import { pairSecret } from '../nearby/pair-secret';
import { linkProofs } from '../verify/link-secret';
import { sasInputAs, verificationWords, type PeerFingerprints } from '../verify/sas';
import { ChannelBuffer } from './channel-buffer';
import { keptBytes, LinkWatch, type KeptBytes } from './link-watch';
import type { ChannelPort, Clock } from './ports';
import { CHANNEL_CLOSE_GRACE_MS } from './session-limits';

type Role = 'sender' | 'receiver';

/** This side's share of the pair secret and the other side's, once `pair` was agreed. */
export interface PairShares {
  role: Role;
  own: string | undefined;
  peer: string | undefined;
}

export interface ChassisConfig {
  /** The channel the session drives, lanes included. */
  channel: ChannelPort;
  clock: Clock;
  /** How this side frames a control message: `ferry-alive` goes out in it. */
  framing: Framing;
  /** This connection's certificates, for the peer check and "Remember this device as". */
  fingerprints: PeerFingerprints | undefined;
  devices?: DeviceSetting;
  publish(view: TransferView): void;
  cancelled: AbortSignal;
  /** Tests shorten the abort flush and the close grace. */
  flushMs?: number;
  closeGraceMs?: number;
}

/** What the chassis hands on to its session. */
export interface ChassisEvents {
  frame(frame: Frame): void;
  bufferedAmountLow(): void;
  /** The channel closed, or the link went silent where `reconnectable` said it was worth it. */
  closed(): void;
  cancel(): void;
  /** Whether a silent link is worth a reconnect now (docs/protocol.md, "Reconnect"). */
  reconnectable(): boolean;
}

/**
 * What a send session and a receive session share around their machine (docs/architecture.md,
 * "The session core"): listening to the channel and the cancel signal, watching the link, one
 * final outcome published (none after a lost link), the peer as a person sees it, the link's
 * proofs and words, and the close that lets an abort reason or a delivered batch land.
 */
export class SessionChassis {
  readonly link: LinkWatch;
  readonly buffer: ChannelBuffer;
  readonly #config: ChassisConfig;
  readonly #events: ChassisEvents;
  readonly #remembered: RememberedDevice | undefined;
  #finalPublished = false;
  #lost = false;
  #kept: KeptBytes = { bytesDone: 0, totalBytes: 0 };
  readonly #unlisten: () => void;
  readonly #onCancel: () => void;

  constructor(config: ChassisConfig, events: ChassisEvents) {
    this.#config = config;
    this.#events = events;
    const { channel, clock, framing } = config;
    this.buffer = new ChannelBuffer(channel, clock);
    this.#remembered = rememberedPeer(config.devices, config.fingerprints);
    this.link = new LinkWatch(
      clock,
      () => channel.send(encodeMessage({ type: 'ferry-alive' }, framing)),
      () => {
        if (!events.reconnectable()) return;
        this.#lost = true;
        events.closed();
      },
    );
    this.#unlisten = channel.listen({
      frame: (frame) => {
        this.link.heard();
        events.frame(frame);
      },
      bufferedAmountLow: () => events.bufferedAmountLow(),
      closed: () => events.closed(),
    });
    this.#onCancel = () => events.cancel();
    config.cancelled.addEventListener('abort', this.#onCancel, { once: true });
  }

  /** The link went silent mid-batch: nothing is published, and the flow may reconnect. */
  get lost(): boolean {
    return this.#lost;
  }

  /** How far the batch got, as its progress last said: what a reconnect keeps. */
  get kept(): KeptBytes {
    return this.#kept;
  }

  /** Starts the session on an open channel, or ends it at once on a cancel or a closed channel. */
  start(open: () => void): void {
    if (this.#config.cancelled.aborted) this.#onCancel();
    else if (this.#config.channel.isClosed) this.#events.closed();
    else open();
  }

  /** Stops listening once the session has finished. */
  release(): void {
    this.#unlisten();
    this.#config.cancelled.removeEventListener('abort', this.#onCancel);
  }

  /** Publishes `view`, unless the outcome is already out or the link was lost. */
  publish(view: TransferView): void {
    if (this.#finalPublished || (this.#lost && view.phase === 'failed')) return;
    if (view.phase === 'transferring') this.#kept = keptBytes(view.progress);
    this.#finalPublished = view.phase === 'done' || view.phase === 'failed';
    this.#config.publish(view);
  }

  /** The machine's check, naming the other device when it is remembered here. */
  check(machineCheck: PeerCheck | undefined): PeerCheck | undefined {
    return checkWithDevice(machineCheck, this.#remembered);
  }

  /**
   * Who was on the other end, for "Remember this device as", with the pair secret once both
   * announced a share of it (`pair`: this side's role and both shares).
   */
  peer(
    check: PeerCheck | undefined,
    announcedName: string | undefined,
    program: PeerProgram | undefined,
    pair: PairShares,
  ): { peer?: PeerSummary } {
    const prints = this.#config.fingerprints;
    const secret = this.#pairSecret(pair);
    const summary = peerSummary(prints, check, announcedName, program, secret);
    return summary === undefined ? {} : { peer: summary };
  }

  /** Both shares over this connection's certificates, in the roles' order (docs/protocol.md, "Pair rooms"). */
  #pairSecret({ role, own, peer }: PairShares): string | undefined {
    const prints = this.#config.fingerprints;
    if (prints === undefined || own === undefined || peer === undefined) return undefined;
    const sender = role === 'sender';
    return pairSecret({
      senderShare: sender ? own : peer,
      receiverShare: sender ? peer : own,
      senderFingerprint: sender ? prints.local : prints.remote,
      receiverFingerprint: sender ? prints.remote : prints.local,
    });
  }

  /**
   * The words, from both nonces and this connection's fingerprints, the sender's first; none
   * where the connection tells no certificates (no words were offered then).
   */
  words(role: Role, senderNonce: string, receiverNonce: string): Promise<string> | undefined {
    const prints = this.#config.fingerprints;
    if (prints === undefined) return undefined;
    return verificationWords(sasInputAs(role, prints, senderNonce, receiverNonce));
  }

  /** This side's proof of the link's `secret`, and the one the other side must send. */
  linkProofs(
    role: Role,
    secret: string | undefined,
    senderNonce: string,
    receiverNonce: string,
  ): Promise<{ own: string; expected: string }> | undefined {
    const prints = this.#config.fingerprints;
    if (prints === undefined || secret === undefined) return undefined;
    return linkProofs(secret, role, sasInputAs(role, prints, senderNonce, receiverNonce));
  }

  /**
   * Closes the channel. A delivered batch or an abort reason (`flushMs` > 0, within which the
   * buffer drains) may still be on its way: the peer closing its side says it landed, within
   * the close grace. Anything else closes at once.
   */
  async close(flushMs: number, landing: boolean): Promise<void> {
    if (flushMs > 0) await this.buffer.drained(this.#config.flushMs ?? flushMs);
    const grace = this.#config.closeGraceMs ?? CHANNEL_CLOSE_GRACE_MS;
    this.#config.channel.close(landing ? grace : 0);
  }
}
