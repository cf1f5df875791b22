import type { AcceptedBatch } from './accepted-batch';
import type { ListMessage } from './messages';
import type { PeerCheckAction, PeerCheckStep } from './peer-check-step';
import type { ReceivedFileList } from './received-file-list';
import { badMetadata } from './receiver-refusals';
import type { ReceiverPeerCheck } from './receiver-peer-check';
import type { AnnouncedFile, Offer } from './receiver-types';
import type { Refusal } from './refusal';

/** The first file and what the person is asked about it, once nothing holds the offer back. */
export interface ReadyOffer {
  first: AnnouncedFile;
  offer: Offer;
}

/**
 * What the receiver does next while the first offer waits for the sender: carry out `actions`,
 * then refuse the batch, or put the offer to the person once it is `ready`.
 */
export type GateStep = { actions: PeerCheckAction[] } & (
  ({ kind: 'refuse' } & Refusal) | { kind: 'go'; ready: ReadyOffer | undefined }
);

/**
 * What the first offer waits for before anyone is asked (docs/protocol.md, "File list",
 * "Verification words", "Secret link"): the sender's file list, when asked for, and the peer
 * check, when agreed. Once both are in, the list is checked against the batch and goes into the
 * offer. The wait has a deadline, the receiver's `list` timer; `overdue` is its end.
 */
export class OfferGate {
  readonly #check: ReceiverPeerCheck;
  readonly #list: ReceivedFileList;
  readonly #batch: AcceptedBatch;
  #held: ReadyOffer | undefined;

  constructor(check: ReceiverPeerCheck, list: ReceivedFileList, batch: AcceptedBatch) {
    this.#check = check;
    this.#list = list;
    this.#batch = batch;
  }

  /** The first metadata is in; `listed`: the sender was asked for its file list. */
  hold(first: AnnouncedFile, offer: Offer, listed: boolean): void {
    this.#held = { first, offer };
    this.#list.expect(listed);
  }

  /** A step of the peer check; a check that just became known may free the offer. */
  checked(step: PeerCheckStep): GateStep {
    if (step.kind === 'refuse') return { ...step, actions: [] };
    const next = step.settled ? this.#ready() : NONE;
    return { ...next, actions: step.actions };
  }

  /** Part of the sender's list, taken only while it is awaited. */
  listed(message: ListMessage): GateStep {
    if (this.#list.done) return NONE;
    const problem = this.#list.take(message, this.#batch.total);
    if (problem !== undefined) return { kind: 'refuse', actions: [], ...badMetadata(problem) };
    return this.#ready();
  }

  /** The wait is over: a sender that committed to a nonce or a proof and did not deliver broke its word. */
  overdue(): GateStep {
    this.#list.close();
    const check = this.#check.overdue();
    return check.kind === 'refuse' ? { ...check, actions: [] } : this.#ready();
  }

  /** With the list and the check in, the list must fit the batch and name its first file. */
  #ready(): GateStep {
    const held = this.#held;
    if (held === undefined || !this.#list.done || this.#check.check === undefined) return NONE;
    const { first, offer } = held;
    const unfit =
      this.#list.settle(this.#batch.totalBytes) ??
      this.#list.unlike(0, first.path, first.sizeAnnounced ? first.fileSize : undefined);
    if (unfit !== undefined) return { kind: 'refuse', actions: [], ...badMetadata(unfit) };
    this.#held = undefined;
    // Without a single name, the offer is the spec's: only the first name is known.
    const files = this.#list.entries;
    const ready = { first, offer: files.length > 0 ? { ...offer, files } : offer };
    return { kind: 'go', actions: [], ready };
  }
}

const NONE: GateStep = { kind: 'go', actions: [], ready: undefined };
