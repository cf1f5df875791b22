import type { AcceptedBatch, AnnouncedFile } from './accepted-batch';
import { noSpace, shortOfSpace, type FreeSpace } from './free-space-check';
import type { Capability } from './messages';
import type { ReceiverAction, ReceiverEvent } from './receiver-types';
import type { Refusal } from './refusal';
import { offerableOffset } from './resume-offset';
import { isTextBatch } from './text-batch';

type OpenPart = Extract<ReceiverAction, { type: 'open-part' }>;
type FreeSpaceRead = Extract<ReceiverEvent, { type: 'free-space' }>;
type ReadFreeSpace = Extract<ReceiverAction, { type: 'read-free-space' }>;

/** Where an accepted file goes next on its way to the ack. */
export type OpeningStep = { file: AnnouncedFile } &
  /**
   * Wait for the driver's answer to `action`: the free space it read (docs/protocol.md, "Free
   * space"), or what an earlier try left of the file, opened (docs/protocol.md, "Resume").
   */
  (
    | { kind: 'wait'; phase: 'checking-space' | 'opening'; action: ReadFreeSpace | OpenPart }
    /** Acknowledge from `offset`, after opening the file when `open` says so. */
    | { kind: 'ack'; open: OpenPart | undefined; offset: number; prefix: string | undefined }
    /** It does not fit; `keep`: what an earlier try left stays for a later resume. */
    | ({ kind: 'refuse'; keep: boolean } & Refusal)
  );

export interface PartOpeningConfig {
  batch: AcceptedBatch;
  /** What a lost link already left of this batch here. */
  keptBytes: number;
  checksFreeSpace: boolean;
  agreed: () => ReadonlySet<Capability>;
  /** Both named `text` and the sender said its batch is one. */
  textOffered: () => boolean;
}

/**
 * The receiver's step between an accepted metadata and its ack: the spec opens a `.part`; Ferry
 * may first read the free space, look for a kept part to resume from, or hold a text message in
 * memory. With none of them agreed it is the spec's open, then ack at 0.
 */
export class PartOpening {
  readonly #config: PartOpeningConfig;
  #checksFreeSpace: boolean;
  #free: FreeSpace | undefined;
  /** The file whose free space is read, or whose kept part is looked for. */
  #file: AnnouncedFile | undefined;

  constructor(config: PartOpeningConfig) {
    this.#config = config;
    this.#checksFreeSpace = config.checksFreeSpace;
  }

  /** Where the person chose to put the batch can tell its free space, or cannot. */
  set checksFreeSpace(checks: boolean) {
    this.#checksFreeSpace = checks;
  }

  isText(file: AnnouncedFile): boolean {
    return isTextBatch(this.#config.textOffered(), this.#config.batch.total, file);
  }

  accept(file: AnnouncedFile): OpeningStep {
    // A text message is held in memory: nothing of it goes where the free space was read.
    if (!this.#checksFreeSpace || this.isText(file)) return this.#open(file);
    this.#file = file;
    const action = { type: 'read-free-space', index: file.index } as const;
    return { kind: 'wait', file, phase: 'checking-space', action };
  }

  /** A file that may resume is judged once its kept part is found, on what it still needs. */
  freeSpace(read: FreeSpaceRead): OpeningStep | undefined {
    const file = this.#file;
    if (file === undefined) return undefined;
    const { freeBytes, reserveBytes = 0, folder } = read;
    this.#free =
      freeBytes === undefined ? undefined : { bytes: freeBytes, reserve: reserveBytes, folder };
    if (this.#resumes(file)) return this.#open(file);
    const short = this.#shortOfSpace(file, 0);
    return short === undefined ? this.#open(file) : this.#noSpace(file, short, false);
  }

  /** What the driver found of the file; anything it could not vouch for starts at 0. */
  found(offset: number, prefix: string | undefined): OpeningStep | undefined {
    const file = this.#file;
    if (file === undefined) return undefined;
    this.#file = undefined;
    const usable = offerableOffset(offset, prefix, file.fileSize);
    const from = usable ? offset : 0;
    // What is still needed once the kept part is counted; the part stays if it is refused.
    const short = this.#shortOfSpace(file, from);
    if (short !== undefined) return this.#noSpace(file, short, from > 0);
    return usable
      ? { kind: 'ack', file, open: undefined, offset, prefix }
      : { kind: 'ack', file, open: undefined, offset: 0, prefix: undefined };
  }

  #open(file: AnnouncedFile): OpeningStep {
    const open: OpenPart = {
      type: 'open-part',
      index: file.index,
      path: file.path,
      fileSize: file.fileSize,
      ...(this.isText(file) ? { text: true as const } : {}),
    };
    // Only a file with bytes to resume is looked for; the driver answers with part-opened.
    if (this.#resumes(file)) {
      this.#file = file;
      const resume = { senderFileId: file.id };
      return { kind: 'wait', file, phase: 'opening', action: { ...open, resume } };
    }
    this.#file = undefined;
    return { kind: 'ack', file, open, offset: 0, prefix: undefined };
  }

  #resumes(file: AnnouncedFile): boolean {
    return this.#config.agreed().has('resume') && file.fileSize > 0 && !this.isText(file);
  }

  #shortOfSpace(file: AnnouncedFile, from: number): number | undefined {
    const { batch, keptBytes } = this.#config;
    return shortOfSpace(this.#free, { totalBytes: batch.totalBytes, keptBytes }, file, from);
  }

  #noSpace(file: AnnouncedFile, needed: number, keep: boolean): OpeningStep {
    return { kind: 'refuse', file, keep, ...noSpace(needed, this.#free) };
  }
}
