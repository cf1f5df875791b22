import type { AcceptedBatch, AnnouncedFile } from './accepted-batch';
import { displayReason } from './display-reason';
import type { Capability, IncomingMetadata, ListMessage } from './messages';
import type { PeerCheckAction, PeerCheckStep } from './peer-check-step';
import type { ReceivedFileList } from './received-file-list';
import { badMetadata } from './receiver-refusals';
import type { ReceiverPeerCheck } from './receiver-peer-check';
import type { Offer } from './receiver-types';
import type { Refusal } from './refusal';
import { advertisedRange, type PeerVersion } from './version-negotiation';

/** The first file and what the person is asked about it, once nothing holds the offer back. */
export interface ReadyOffer {
  first: AnnouncedFile;
  offer: Offer;
}

/** How the batch's first file goes on from its metadata. */
export type FirstStep =
  | ({ kind: 'refuse' } & Refusal)
  /** Nobody is asked and nothing is checked: the spec's ack follows at once. */
  | { kind: 'accept' }
  /** The person is asked now; `early`: this side's caps go first, so a cancel can be named. */
  | { kind: 'ask'; ready: ReadyOffer; early: boolean }
  /** The offer waits for the sender's list and peer check, asked for by this side's caps. */
  | { kind: 'wait' };

export interface OfferGateConfig {
  check: ReceiverPeerCheck;
  list: ReceivedFileList;
  batch: AcceptedBatch;
  agreed: () => ReadonlySet<Capability>;
  isText: (file: AnnouncedFile) => boolean;
  askBeforeAccepting: boolean;
  holdsLinkSecret: boolean;
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
  readonly #config: OfferGateConfig;
  readonly #check: ReceiverPeerCheck;
  readonly #list: ReceivedFileList;
  readonly #batch: AcceptedBatch;
  #held: ReadyOffer | undefined;

  constructor(config: OfferGateConfig) {
    this.#config = config;
    this.#check = config.check;
    this.#list = config.list;
    this.#batch = config.batch;
  }

  /**
   * The first metadata is in. The sender lists its files and reveals its nonce before anyone
   * decides (docs/protocol.md, "File list", "Verification words"); a sender that announced
   * neither is asked about, or accepted, as the spec's.
   */
  first(file: AnnouncedFile, metadata: IncomingMetadata): FirstStep {
    const check = this.#check.atFirstFile(this.#config.holdsLinkSecret);
    if (check.kind === 'refuse') return check;
    const agreed = this.#config.agreed();
    const verifies = agreed.has('sas');
    if (!this.#config.askBeforeAccepting && !verifies) return { kind: 'accept' };
    const offer = this.#offerOf(file, metadata);
    const listed = agreed.has('list');
    if (!listed && !verifies) {
      return { kind: 'ask', ready: { first: file, offer }, early: agreed.has('outcome') };
    }
    this.#held = { first: file, offer };
    this.#list.expect(listed);
    return { kind: 'wait' };
  }

  /** What the person is asked: the batch as its first metadata describes it. */
  #offerOf(file: AnnouncedFile, metadata: IncomingMetadata): Offer {
    const { min, max } = advertisedRange(metadata);
    const sender: PeerVersion = { pv: max, pvMin: min };
    // The prompt prints the peer's own text, so it gets the care of a displayed reason.
    if (metadata.ver !== undefined) sender.ver = displayReason(metadata.ver);
    const { total, totalBytes } = this.#batch;
    const text = this.#config.isText(file) ? { text: true as const } : {};
    return { fileName: file.path, fileSize: file.fileSize, total, totalBytes, sender, ...text };
  }

  /** A step of the peer check; a check that just became known may free the offer. */
  checked(step: PeerCheckStep): GateStep {
    if (step.kind === 'refuse') return step;
    const next = step.settled ? this.#ready() : NONE;
    return { ...next, actions: step.actions };
  }

  /** File `index` must be the one the person was shown, when the list named it. */
  unlisted(index: number, path: string, fileSize: number | undefined): string | undefined {
    return this.#list.unlike(index, path, fileSize);
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
    return check.kind === 'refuse' ? check : this.#ready();
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
