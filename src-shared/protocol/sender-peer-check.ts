import type { PeerCheck } from '../transfer/transfer-view';
import { sameSecret } from '../verify/same-secret';
import { refusesLinkProof, refusesVerification } from './decode-control';
import { defaultFailure } from './error-codes';
import { encodeMessage } from './encode';
import type { Capability, CapsMessage } from './messages';
import {
  after,
  checkUnworkable,
  go,
  linkRefused,
  NOTHING,
  sasRefused,
  type PeerCheckStep,
} from './peer-check-step';
import type { SenderEvent } from './sender-types';

type CheckAnswer = Extract<
  SenderEvent,
  { type: 'words-derived' | 'words-failed' | 'link-proved' | 'link-failed' }
>;

export interface SenderPeerCheckConfig {
  /** This connection's nonce and its commitment, when this side offers `sas`. */
  sas: { nonce: string; commit: string } | undefined;
  /** A person confirms the check before any file data leaves. */
  confirmsPeer: boolean;
  agreed: () => ReadonlySet<Capability>;
}

/**
 * The sender's half of the peer check (docs/protocol.md, "Verification words", "Secret link"):
 * once the receiver gives its nonce, reveal the one committed to and derive the words; with
 * `link`, prove the link's secret and hold the receiver to its own proof before its first ack.
 * No file data leaves before the check is known and, when a person confirms, confirmed.
 */
export class SenderPeerCheck {
  readonly #config: SenderPeerCheckConfig;
  /** The receiver's nonce, once this side revealed its own in answer. */
  #receiverNonce: string | undefined;
  #check: PeerCheck | undefined;
  #confirmed = false;
  /** The words, kept back while the secret link's proofs are still being checked. */
  #words: string | undefined;
  /** `link` was agreed when this side revealed its nonce: both proofs must check out. */
  #linkAgreed = false;
  /** The receiver's proof as computed here (set once this side's own went out), and as received. */
  #expectedProof: string | undefined;
  #receiverProof: string | undefined;
  #linkChecked = false;

  constructor(config: SenderPeerCheckConfig) {
    this.#config = config;
  }

  /** The words once derived, that the link matched, or, from the first ack, that none can be shown. */
  get check(): PeerCheck | undefined {
    return this.#check;
  }

  get linkAgreed(): boolean {
    return this.#linkAgreed;
  }

  /**
   * No file data before the check is known (so both people can see it first) and, when a person
   * confirms, before they did.
   */
  get holdsData(): boolean {
    return this.#check === undefined || (this.#config.confirmsPeer && !this.#confirmed);
  }

  /** A receiver that verifies gave its nonce: reveal the one committed to, once. */
  answered(caps: CapsMessage): PeerCheckStep {
    const sas = this.#config.sas;
    const receiverNonce = caps.nonce;
    if (sas === undefined || receiverNonce === undefined || this.#receiverNonce !== undefined) {
      return NOTHING;
    }
    const agreed = this.#config.agreed();
    if (!agreed.has('sas')) return NOTHING;
    this.#receiverNonce = receiverNonce;
    // The link's proofs need both nonces too: `link` counts only beside `sas`.
    this.#linkAgreed = agreed.has('link');
    const nonces = { senderNonce: sas.nonce, receiverNonce };
    return go([
      {
        type: 'send',
        frame: encodeMessage({ type: 'ferry-sas-reveal', nonce: sas.nonce }, 'text'),
      },
      { type: 'derive-words', ...nonces },
      ...(this.#linkAgreed ? [{ type: 'prove-link' as const, ...nonces }] : []),
    ]);
  }

  /** What the driver made of `derive-words` or `prove-link`. */
  answer(event: CheckAnswer): PeerCheckStep {
    switch (event.type) {
      case 'words-derived':
        if (this.#receiverNonce === undefined || this.#words !== undefined) return NOTHING;
        this.#words = event.words;
        return this.#settle();
      case 'words-failed':
        return this.#receiverNonce !== undefined && this.#check === undefined
          ? checkUnworkable('sending', 'words', event.detail)
          : NOTHING;
      case 'link-proved': {
        if (!this.#linkAgreed || this.#expectedProof !== undefined) return NOTHING;
        this.#expectedProof = event.expected;
        const own = encodeMessage({ type: 'ferry-link-proof', mac: event.own }, 'text');
        return after([{ type: 'send', frame: own }], this.#checkLink());
      }
      case 'link-failed':
        return this.#linkAgreed && !this.#linkChecked
          ? checkUnworkable('sending', 'link', event.detail)
          : NOTHING;
    }
  }

  /** The receiver's proof, taken once, before its first ack (`awaited`). */
  linkProof(mac: string, awaited: boolean): PeerCheckStep {
    // A side that did not agree `link` ignores the message, as every extension not agreed.
    if (!this.#linkAgreed) return NOTHING;
    if (this.#receiverProof !== undefined || !awaited) return linkRefused();
    this.#receiverProof = mac;
    return this.#checkLink();
  }

  /**
   * At the first ack: the receiver proves it holds the secret before it, or it does not hold it;
   * a receiver that gave no nonce before it cannot show words.
   */
  atFirstAck(): PeerCheckStep {
    if (this.#linkAgreed && this.#receiverProof === undefined) return linkRefused();
    if (this.#receiverNonce === undefined) this.#check = { kind: 'unverified' };
    return NOTHING;
  }

  /** The person saw the check and goes on; only what was shown can be confirmed. */
  confirmed(): PeerCheckStep {
    if (this.#check === undefined) return NOTHING;
    this.#confirmed = true;
    return go([], true);
  }

  /** The words differ, or the person will not go on without any: taken before any file data. */
  rejected(beforeData: boolean): PeerCheckStep {
    if (!beforeData) return NOTHING;
    return {
      kind: 'refuse',
      actions: [],
      failure: defaultFailure('ERR_NOT_CONFIRMED'),
      reason: 'the sending person did not confirm the verification words',
    };
  }

  /**
   * A message whose fields are unusable. A `sas` or link one is refused only by a side that
   * checks it; undefined for any other, which breaks the protocol.
   */
  unusable(reading: { type: string; problem: string }): PeerCheckStep | undefined {
    if (refusesLinkProof(reading)) return this.#linkAgreed ? linkRefused() : NOTHING;
    if (!refusesVerification(reading)) return undefined;
    const problem = `an unusable ${reading.type} arrived (${reading.problem})`;
    return this.#config.sas !== undefined ? sasRefused('sending', problem) : NOTHING;
  }

  /** The receiver's proof, once both it and the expected one are in, must be the expected one. */
  #checkLink(): PeerCheckStep {
    const expected = this.#expectedProof;
    const received = this.#receiverProof;
    if (expected === undefined || received === undefined || this.#linkChecked) return NOTHING;
    if (!sameSecret(received, expected)) return linkRefused();
    this.#linkChecked = true;
    return this.#settle();
  }

  /** The check once it is known: the words, or, with `link`, that both proofs checked out. */
  #settle(): PeerCheckStep {
    const words = this.#words;
    if (this.#check !== undefined || words === undefined) return NOTHING;
    if (this.#linkAgreed && !this.#linkChecked) return NOTHING;
    this.#check = this.#linkAgreed ? { kind: 'link' } : { kind: 'words', words };
    return go([], true);
  }
}
