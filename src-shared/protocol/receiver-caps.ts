import { encodeMessage } from './encode';
import type { Frame, Framing } from './frame';
import type { Capability, CapsMessage } from './messages';
import type { ReceiverConfig } from './receiver-types';

/** What this runtime speaks (`caps`), before what this batch rules out, and what goes with it. */
export type ReceiverCapsConfig = Pick<
  ReceiverConfig,
  'caps' | 'askBeforeAccepting' | 'sasNonce' | 'holdsLinkSecret' | 'deviceName' | 'pairShare'
> & { framing: Framing };

/** This side's `ferry-caps`, as the receiver sends it. */
export interface CapsAnswer {
  type: 'send';
  frame: Frame;
  early?: true;
}

/**
 * The receiver's half of capability agreement (docs/protocol.md, "Capabilities"): it answers only
 * a sender that announced its own `ferry-caps`, so a sender that announced nothing sees the spec's
 * wire alone; what both name is agreed for the whole batch.
 */
export class ReceiverCaps {
  readonly #config: ReceiverCapsConfig;
  #spoken: readonly Capability[];
  /** The sender's `ferry-caps`, until it is answered with this side's own before the first ack. */
  #senderCaps: CapsMessage | undefined;
  /** This side's last answer, when one went out. */
  #answered: readonly Capability[] | undefined;
  #agreed = new Set<Capability>();
  #acked = false;

  constructor(config: ReceiverCapsConfig) {
    this.#config = config;
    // The list is for a person to read: a receiver that does not ask does not ask for it. The
    // words need this side's nonce.
    this.#spoken = (config.caps ?? []).filter(
      (cap) =>
        (cap !== 'list' || config.askBeforeAccepting) &&
        (cap !== 'sas' || config.sasNonce !== undefined) &&
        // The link's proofs reuse both nonces, and only a key from a link can prove anything.
        (cap !== 'link' || (config.sasNonce !== undefined && config.holdsLinkSecret === true)) &&
        (cap !== 'pair' || config.pairShare !== undefined),
    );
  }

  speaks(cap: Capability): boolean {
    return this.#spoken.includes(cap);
  }

  get agreed(): ReadonlySet<Capability> {
    return this.#agreed;
  }

  /** The name the sender announced beside `device`, once both named it. */
  get senderName(): string | undefined {
    return this.#agreed.has('device') ? this.#senderCaps?.name : undefined;
  }

  /** The sender's secret for meeting again after a lost link, once `reconnect` was agreed. */
  get rejoinSecret(): string | undefined {
    return this.#agreed.has('reconnect') ? this.#senderCaps?.rejoin : undefined;
  }

  /** The sender's share of the pair secret, once `pair` was agreed. */
  get senderPairShare(): string | undefined {
    return this.#agreed.has('pair') ? this.#senderCaps?.pair : undefined;
  }

  /** Both named `text` and the sender said its batch is a text message. */
  get textOffered(): boolean {
    return this.#agreed.has('text') && this.#senderCaps?.text === true;
  }

  /** The sender's announcement, taken only before the first file: agreed once, for the batch. */
  take(message: CapsMessage): void {
    this.#senderCaps = message;
    // `sas` without a commitment cannot be checked: that sender is not verified.
    this.#agreed = new Set(
      message.caps.filter(
        (cap) => this.speaks(cap) && (cap !== 'sas' || message.commit !== undefined),
      ),
    );
    // The link's proofs reuse both nonces: without `sas` there is nothing to prove with.
    if (!this.#agreed.has('sas')) this.#agreed.delete('link');
    // Without the sender's secret, the room to meet again in is one a stranger could find.
    if (message.rejoin === undefined) this.#agreed.delete('reconnect');
    // Without the sender's share there is no secret to compute.
    if (message.pair === undefined) this.#agreed.delete('pair');
  }

  /** The batch goes where nothing partial can be kept: no resume, so no reconnect either. */
  withoutResume(): void {
    this.#spoken = this.#spoken.filter((cap) => cap !== 'resume' && cap !== 'reconnect');
    this.#agreed = new Set([...this.#agreed].filter((cap) => this.speaks(cap)));
  }

  /** Before the first ack only: what the sender must hear before any ack (see `answer`). */
  beforeAck(): CapsAnswer[] {
    if (this.#acked) return [];
    this.#acked = true;
    return this.answer(false);
  }

  /**
   * This side's `ferry-caps`, when the sender announced its own: early to ask for the file list
   * or the sender's reveal, then once more before the first ack only if what this side speaks
   * changed since (a target that cannot keep partial files dropped resume), since the sender
   * keeps the last answer. Every answer naming `sas` carries the same nonce.
   */
  answer(early: boolean): CapsAnswer[] {
    const sender = this.#senderCaps;
    if (sender === undefined) return [];
    // Named only when it can be agreed, so that both sides agree the same.
    const caps = this.#spoken.filter(
      (cap) =>
        (cap !== 'reconnect' || sender.rejoin !== undefined) &&
        (cap !== 'pair' || sender.pair !== undefined),
    );
    const answered = this.#answered;
    if (answered === undefined ? caps.length === 0 : sameCaps(answered, caps)) return [];
    this.#answered = caps;
    const nonce = caps.includes('sas') ? this.#config.sasNonce : undefined;
    const name = caps.includes('device') ? this.#config.deviceName : undefined;
    const pair = caps.includes('pair') ? this.#config.pairShare : undefined;
    const frame = encodeMessage(
      {
        type: 'ferry-caps',
        caps,
        ...(nonce === undefined ? {} : { nonce }),
        ...(name === undefined ? {} : { name }),
        ...(pair === undefined ? {} : { pair }),
      },
      this.#config.framing,
    );
    // `early`: sent before the batch is accepted, so it does not yet mean the transfer started.
    return [early ? { type: 'send', frame, early } : { type: 'send', frame }];
  }
}

function sameCaps(a: readonly Capability[], b: readonly Capability[]): boolean {
  return a.length === b.length && a.every((cap) => b.includes(cap));
}
