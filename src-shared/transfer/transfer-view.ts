import type { PeerProgram } from '../devices/peer-program';
import type { ErrorCode } from '../protocol/error-codes';

/**
 * What a person sees of one transfer, whichever backend runs it (the native engine behind IPC,
 * or the browser's own WebRTC). Screens render this union and nothing else.
 */
export type TransferDirection = 'send' | 'receive';

export interface FileEntryView {
  /** Relative path as shown, `/`-separated. */
  name: string;
  size: number;
}

/** One file of an offer's list, as the accept prompt shows it. */
export interface OfferFileView {
  /** Sanitized relative path, `/`-separated, shortened for display (LISTED_NAME_DISPLAY_MAX_CHARS). */
  name: string;
  size: number;
  /** The file, or a folder it is in, is hidden (a name starting with a dot). */
  hidden: boolean;
  /** The file runs or installs something when opened (src-shared/names/risky-name.ts). */
  executable: boolean;
}

/**
 * What this side knows of who is on the other end of the connection (docs/protocol.md,
 * "Verification words", "Secret link"): three words both people compare, or that the other
 * device cannot show any, so it was not verified, or that the secret link matched.
 */
export type PeerCheck =
  | { kind: 'words'; words: string }
  | { kind: 'unverified' }
  /** Both sides proved they hold the secret link's secret (docs/protocol.md, "Secret link"). */
  | { kind: 'link' }
  /**
   * The other device's certificate is one this device remembers as `name` (docs/protocol.md,
   * "Remembered devices"); `words` when the connection has them too, for a person who asks.
   */
  | { kind: 'device'; name: string; fingerprint: string; words?: string };

/** Every surface's words for `{ kind: 'device' }`. */
export function rememberedDeviceLine(name: string): string {
  return `Remembered device “${name}” — verified automatically`;
}

/**
 * Who was on the other end of a finished transfer, so the person may remember it
 * (docs/protocol.md, "Remembered devices").
 */
export interface PeerSummary {
  /** Its certificate's fingerprint, normalized (verify/sas.ts). */
  fingerprint: string;
  check: PeerCheck;
  /** The name it gave itself beside `device`, cleaned: a suggestion, never trusted. */
  announcedName?: string;
  /** The kind of program its release string names, once this side heard one (or heard none). */
  program?: PeerProgram;
  /**
   * The secret both sides agreed beside `pair` on this connection, 64 lowercase hex, kept with
   * the device if the person remembers it (docs/protocol.md, "Pair rooms").
   */
  pairSecret?: string;
}

/** Every surface's words for `{ kind: 'link' }` (docs/protocol.md, "Secret link"). */
export const LINK_MATCHED = 'Verified automatically: the secret link matched';

export interface OfferView {
  /** The first file's name: the protocol announces one file at a time. */
  firstFileName: string;
  fileCount: number;
  totalBytes: number;
  /** The sender's release string, when it sent one. */
  senderVersion?: string;
  /**
   * Every file of the batch, in order, when the sender listed them (docs/protocol.md, "File
   * list"); absent when it did not, and then only the first name is known. Shorter than
   * `fileCount` when the list was cut off.
   */
  files?: OfferFileView[];
  /** Known before the person is asked: the words to compare, or that there are none. */
  peerCheck: PeerCheck;
  /**
   * The batch is a text message of `totalBytes` bytes, shown once it arrived rather than saved
   * (docs/protocol.md, "Text messages").
   */
  textMessage?: boolean;
}

/** How an offer with a `zip` choice is saved: as that one `.zip`, or as separate downloads. */
export type OfferPacking = 'zip' | 'separate-files';

/** The command line prints this many names of a listed offer, then a count of the rest. */
export const OFFER_FILES_PRINTED = 20;

export interface ProgressView {
  /** 1-based position of the current file in the batch, as shown ("file 2 of 5"). */
  fileIndex: number;
  fileCount: number;
  fileName: string;
  fileBytes: number;
  fileSize: number;
  bytesDone: number;
  totalBytes: number;
  /**
   * Bytes of the current file, and of the whole batch, that the receiver already had from an
   * earlier try and that did not travel again (docs/protocol.md, "Resume"); counted in
   * `fileBytes` and `bytesDone`, never in the speed.
   */
  fileResumedBytes?: number;
  resumedBytes?: number;
  /** If the transfer stops now, the receiver keeps what arrived for a later resume. */
  keepsPartial?: boolean;
  bytesPerSecond: number;
  /** Seconds left at the current speed; undefined until a speed is known. */
  etaSeconds?: number;
}

export interface DeliveredFileView {
  name: string;
  size: number;
  /** Where it landed on this device, when the backend knows (native receiver). */
  savedPath?: string;
  /**
   * Both sides checked its content digest: true once the receiver confirmed it; false when the
   * receiver verifies but this file's confirmation never came. Absent where nobody verified.
   */
  verified?: boolean;
  /** Bytes of it the receiver already had from an earlier try, which did not travel again. */
  resumedBytes?: number;
}

export type TransferView =
  | { phase: 'idle' }
  /**
   * `text`, on a sender's views: the batch is this text message, which every screen names as a
   * text, never as the file it travels as (docs/protocol.md, "Text messages").
   */
  | {
      phase: 'registering';
      direction: 'send';
      files: FileEntryView[];
      totalBytes: number;
      text?: string;
    }
  | {
      phase: 'waiting-for-peer';
      direction: 'send';
      code: string;
      text?: string;
      /** The secret the receive link carries beside the code (docs/protocol.md, "Secret link"). */
      key?: string;
      /**
       * A send without a code (`code` is empty): the name of the one device it was offered to,
       * "Waiting for NAME to answer" (docs/protocol.md, "Pair rooms").
       */
      to?: string;
      files: FileEntryView[];
      totalBytes: number;
    }
  /** `retry` counts the attempts after a failed first one; `stage` is how far this one got. */
  | {
      phase: 'connecting';
      direction: TransferDirection;
      /** Empty for a send without a code and a receive by invitation. */
      code: string;
      /** A send without a code: the device it goes to. */
      to?: string;
      stage: ConnectingStage;
      retry?: number;
    }
  /**
   * The link was lost mid-batch and both sides are getting back together by themselves
   * (docs/protocol.md, "Reconnect"); `bytesDone` of `totalBytes` are kept.
   */
  | {
      phase: 'reconnecting';
      direction: TransferDirection;
      attempt: number;
      bytesDone: number;
      totalBytes: number;
    }
  | {
      phase: 'awaiting-acceptance';
      direction: 'receive';
      offer: OfferView;
      destination: string;
      /**
       * Where the destination cannot hold folders (a browser's downloads): the batch may be saved
       * as one `.zip` named `name`, which keeps them, or as separate files (src-shared/transfer/
       * zip-offer.ts). The person chooses; the `.zip` is the default.
       */
      zip?: { name: string };
      /**
       * "Confirm the words" is on and the person has not yet said whether the words match:
       * Accept waits for "The words match" (src-shared/verify/confirm-words.ts).
       */
      wordsAsked?: true;
    }
  /**
   * `peerCheck` once the sender knows it: when it revealed its nonce, or at the first ack.
   * `wordsAsked`: "Confirm the words" is on, and no file data leaves until the person says
   * whether the words match.
   */
  | {
      phase: 'waiting-for-acceptance';
      direction: 'send';
      code: string;
      peerCheck?: PeerCheck;
      wordsAsked?: true;
    }
  /** `peerCheck` stays in sight while the files move. */
  | {
      phase: 'transferring';
      direction: TransferDirection;
      progress: ProgressView;
      peerCheck?: PeerCheck;
      text?: string;
    }
  | {
      phase: 'done';
      direction: TransferDirection;
      files: DeliveredFileView[];
      totalBytes: number;
      /** The folder the files were saved in (receiver). */
      folder?: string;
      /**
       * The files went to the browser's downloads instead (receiver): as one archive named
       * `archive`, or one download each.
       */
      downloads?: { archive?: string };
      /**
       * Sender: false when a receiver that confirms batches never did, so the files left but
       * nobody said they arrived (docs/protocol.md, "Delivery confirmation").
       */
      confirmed?: boolean;
      /** Every file's content digest was checked end to end (docs/protocol.md, "Verification"). */
      verified?: boolean;
      /** The other device, when this side could read its certificate. */
      peer?: PeerSummary;
      /**
       * The batch was this text message: the one that arrived, shown as plain text and never
       * saved (receiver), or the one sent (sender) (docs/protocol.md, "Text messages").
       */
      text?: string;
    }
  | {
      phase: 'failed';
      direction: TransferDirection;
      code: ErrorCode;
      message: string;
      /**
       * The files that arrived whole before it ended, when this side knows (a receiver always; a
       * sender from the receiver's digests, docs/protocol.md "Verification"), for the history.
       */
      arrived?: DeliveredFileView[];
      /** The other device, when the two got as far as a connection. */
      peer?: PeerSummary;
    };

/** What every surface says while a lost link is being restored, attempt `attempt` of them. */
export function reconnectingLine(attempt: number): string {
  return `Connection lost — reconnecting (attempt ${attempt})…`;
}

/**
 * How far a connection has got, from the session's own events: `finding`, the room is joined and
 * the other device not there yet (a receiver waiting for the offer); `direct`, the two devices
 * found each other and ICE looks for a direct route; `securing`, ICE and DTLS are up and the
 * encrypted channel opens, then the devices check each other.
 */
export type ConnectingStage = 'finding' | 'direct' | 'securing';

/** The stages in order, each as every surface words it. */
export const CONNECTING_STAGES: readonly { stage: ConnectingStage; label: string }[] = [
  { stage: 'finding', label: 'Finding the other device' },
  { stage: 'direct', label: 'Connecting directly' },
  { stage: 'securing', label: 'Securing the connection' },
];

/** The words of one stage. */
export function connectingStageLabel(stage: ConnectingStage): string {
  return CONNECTING_STAGES.find((known) => known.stage === stage)?.label ?? stage;
}

/** What every surface says while a failed connection attempt is replaced by a new one. */
export const RETRYING_THE_CONNECTION = 'Retrying the connection…';

export type TransferPhase = TransferView['phase'];

export const IDLE_TRANSFER: TransferView = { phase: 'idle' };

/**
 * What every surface adds to "Delivered" when a receiver that confirms batches never did: the
 * files left this device, but nobody said they arrived (docs/protocol.md, "Delivery confirmation").
 */
export const NOT_CONFIRMED = '(not confirmed by the receiver)';
