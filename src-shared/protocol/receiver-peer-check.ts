import type { PeerCheck } from '../transfer/transfer-view';
import { sameSecret } from '../verify/same-secret';
import { refusesLinkProof, refusesVerification } from './decode-control';
import { ERROR_MESSAGES } from './error-codes';
import { encodeMessage } from './encode';
import type { Framing } from './frame';
import type { Capability, LinkProofMessage, SasRevealMessage } from './messages';
import { LINK_UNPROVEN_PROBLEM, LINK_UNPROVEN_REASON } from './peer-incompatible';
import type { ReceiverEvent } from './receiver-types';
import {
  checkUnworkable,
  go,
  linkRefused,
  NOTHING,
  sasRefused,
  after,
  type PeerCheckStep,
} from './peer-check-step';

type CheckAnswer = Extract<
  ReceiverEvent,
  { type: 'words-derived' | 'words-failed' | 'link-proved' | 'link-failed' }
>;

export interface ReceiverPeerCheckConfig {
  /** This side's nonce, when it speaks `sas`. */
  nonce: string | undefined;
  framing: Framing;
  /** What both sides agreed, read as it stands. */
  agreed: () => ReadonlySet<Capability>;
}

/**
 * The receiver's half of the peer check (docs/protocol.md, "Verification words", "Secret link"):
 * the sender committed to a nonce in its caps, reveals it once while the first offer waits, and,
 * when `link` was agreed, proves the link's secret; only then is the check known and the person
 * asked. `waiting` in each call says the first offer is waiting for the sender, the only time any
 * of it may arrive.
 */
export class ReceiverPeerCheck {
  readonly #config: ReceiverPeerCheckConfig;
  #commit: string | undefined;
  /** The sender revealed its nonce; only one reveal is taken. */
  #revealed = false;
  #check: PeerCheck | undefined;
  /** The words, kept back while the secret link's proofs are still being checked. */
  #words: string | undefined;
  /** The sender's proof, the one expected of it, and this side's own, sent once it checked out. */
  #senderProof: string | undefined;
  #expectedProof: string | undefined;
  #ownProof: string | undefined;
  #linkChecked = false;

  constructor(config: ReceiverPeerCheckConfig) {
    this.#config = config;
  }

  /** The words, that the link matched, or that none can be shown; known before anyone is asked. */
  get check(): PeerCheck | undefined {
    return this.#check;
  }

  /** Whether this side verifies at all: a side that does not ignores every `sas` message. */
  get #speaks(): boolean {
    return this.#config.nonce !== undefined;
  }

  get #agreed(): ReadonlySet<Capability> {
    return this.#config.agreed();
  }

  /** What the driver made of `derive-words` or `prove-link`. */
  answer(event: CheckAnswer, waiting: boolean): PeerCheckStep {
    switch (event.type) {
      case 'words-derived':
        return this.#wordsDerived(event.words, event.revealedCommit, waiting);
      case 'words-failed':
        return waiting ? checkUnworkable('receiving', 'words', event.detail) : NOTHING;
      case 'link-proved':
        return this.#linkProved(event.own, event.expected);
      case 'link-failed':
        return waiting && this.#agreed.has('link')
          ? checkUnworkable('receiving', 'link', event.detail)
          : NOTHING;
    }
  }

  /** The sender's nonce or its proof of the link's secret. */
  heard(message: SasRevealMessage | LinkProofMessage, waiting: boolean): PeerCheckStep {
    return message.type === 'ferry-sas-reveal'
      ? this.#reveal(message.nonce, waiting)
      : this.#linkProof(message.mac, waiting);
  }

  /** The commitment the sender's caps carried. */
  committed(commit: string | undefined): void {
    this.#commit = commit;
  }

  /**
   * At the first metadata. A side that holds a link's key refuses a sender that did not agree to
   * prove it (an older build, or a middle that dropped `link`); without `sas` nothing is verified.
   */
  atFirstFile(holdsLinkSecret: boolean): PeerCheckStep {
    if (holdsLinkSecret && !this.#agreed.has('link')) {
      return {
        kind: 'refuse',
        actions: [],
        failure: {
          code: 'ERR_LINK_MISMATCH',
          message: `${ERROR_MESSAGES.ERR_LINK_MISMATCH} (${LINK_UNPROVEN_PROBLEM})`,
        },
        reason: LINK_UNPROVEN_REASON,
      };
    }
    if (!this.#agreed.has('sas')) this.#check = { kind: 'unverified' };
    return NOTHING;
  }

  /** The sender's nonce, taken once; the driver derives the words and hashes it. */
  #reveal(nonce: string, waiting: boolean): PeerCheckStep {
    const receiverNonce = this.#config.nonce;
    if (receiverNonce === undefined) return NOTHING;
    if (!this.#agreed.has('sas')) {
      return sasRefused('receiving', 'the sending device revealed a nonce it never committed to');
    }
    if (this.#revealed || !waiting) {
      return sasRefused('receiving', 'the sending device revealed its nonce out of turn');
    }
    this.#revealed = true;
    const nonces = { senderNonce: nonce, receiverNonce };
    return go([
      { type: 'derive-words', ...nonces },
      ...(this.#agreed.has('link') ? [{ type: 'prove-link' as const, ...nonces }] : []),
    ]);
  }

  /** The revealed nonce must be the one committed to; only then do the words count. */
  #wordsDerived(words: string, revealedCommit: string, waiting: boolean): PeerCheckStep {
    if (!waiting || !this.#revealed || this.#words !== undefined) return NOTHING;
    if (this.#commit === undefined || !sameSecret(revealedCommit, this.#commit)) {
      return sasRefused(
        'receiving',
        'the nonce the sending device revealed is not the one it committed to',
      );
    }
    this.#words = words;
    return this.#settle();
  }

  #linkProved(own: string, expected: string): PeerCheckStep {
    if (!this.#agreed.has('link') || this.#expectedProof !== undefined) return NOTHING;
    this.#expectedProof = expected;
    this.#ownProof = own;
    return this.#checkLink();
  }

  /** The sender's proof, taken once. */
  #linkProof(mac: string, waiting: boolean): PeerCheckStep {
    if (!this.#agreed.has('link')) return NOTHING;
    if (this.#senderProof !== undefined || !waiting) return linkRefused();
    this.#senderProof = mac;
    return this.#checkLink();
  }

  /**
   * A message whose fields are unusable. A `sas` or link one is refused only by a side that
   * checks it; undefined for any other, which is a file description this side will not take.
   */
  unusable(reading: { type: string; problem: string }): PeerCheckStep | undefined {
    if (refusesLinkProof(reading)) return this.#agreed.has('link') ? linkRefused() : NOTHING;
    if (!refusesVerification(reading)) return undefined;
    const problem = `an unusable ${reading.type} arrived (${reading.problem})`;
    return this.#speaks ? sasRefused('receiving', problem) : NOTHING;
  }

  /** The wait for the sender is over: a sender that committed and did not deliver broke its word. */
  overdue(): PeerCheckStep {
    if (this.#agreed.has('sas') && !this.#revealed) {
      return sasRefused('receiving', 'the sending device did not reveal its nonce in time');
    }
    if (this.#agreed.has('link') && this.#senderProof === undefined) return linkRefused();
    return NOTHING;
  }

  /** Both proofs in: the sender's must be the expected one; then this side's own goes out. */
  #checkLink(): PeerCheckStep {
    const expected = this.#expectedProof;
    const sender = this.#senderProof;
    const own = this.#ownProof;
    if (expected === undefined || sender === undefined || own === undefined) return NOTHING;
    if (this.#linkChecked) return NOTHING;
    if (!sameSecret(sender, expected)) return linkRefused();
    this.#linkChecked = true;
    const frame = encodeMessage({ type: 'ferry-link-proof', mac: own }, this.#config.framing);
    return after([{ type: 'send', frame, early: true }], this.#settle());
  }

  /** The check once it is known: the words, or, with `link`, that the secret link matched. */
  #settle(): PeerCheckStep {
    const words = this.#words;
    if (this.#check !== undefined || words === undefined) return NOTHING;
    const link = this.#agreed.has('link');
    if (link && !this.#linkChecked) return NOTHING;
    this.#check = link ? { kind: 'link' } : { kind: 'words', words };
    return go([], true);
  }
}
