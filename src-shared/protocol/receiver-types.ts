import type { PeerCheck } from '../transfer/transfer-view';
import type { Failure } from './error-codes';
import type { Frame } from './frame';
import type { Surface } from './frame-classification';
import type { Capability } from './messages';
import type { TimerAction } from './timer-actions';
import type { PeerVersion } from './version-negotiation';
import type { RemedySurface } from './version-remedy';

// The receiver machine's contract (docs/protocol-machines.md, "Receiver"): what its driver
// configures, feeds in and carries out. The machine itself is receiver.ts.

export interface ReceiverConfig {
  surface: Surface;
  /** Ferry's extensions this side speaks; announced only in answer to a sender's `ferry-caps`. */
  caps?: readonly Capability[];
  local: PeerVersion;
  remedySurface: RemedySurface;
  /** Ask the person before acknowledging the batch's first file. */
  askBeforeAccepting: boolean;
  /**
   * The driver answers each `read-free-space` with `free-space`, and the batch and each file are
   * refused when they need more than is free (docs/protocol.md, "Free space").
   */
  checksFreeSpace?: boolean;
  /** Bytes of this batch already here from before a lost link: the batch needs only the rest. */
  keptBytes?: number;
  /**
   * This side's fresh nonce for `sas`, 64 lowercase hex; without one `sas` is not announced
   * (docs/protocol.md, "Verification words").
   */
  sasNonce?: string;
  /**
   * This side holds the secret of the link it was opened from: `link` is announced beside `sas`,
   * and a sender that does not prove it is refused (docs/protocol.md, "Secret link").
   */
  holdsLinkSecret?: boolean;
  /** This installation's name, announced beside `device` (docs/protocol.md, "Remembered devices"). */
  deviceName?: string;
  /**
   * A fresh share of the pair secret, 32 bytes in lowercase hex, announced beside `pair`; without
   * one `pair` is not offered (docs/protocol.md, "Pair rooms").
   */
  pairShare?: string;
}

/**
 * `list`: waiting for the sender's file list and its verification reveal before asking the
 * person (or, when nobody is asked, before accepting).
 */
export type ReceiverTimer = 'first-data' | 'no-progress' | 'teardown' | 'list';

/** A file of the sender's list: its sanitized relative path and its size. */
export interface ListedEntry {
  path: string;
  size: number;
}

/** What the person is asked to accept: the batch as its first metadata describes it. */
export interface Offer {
  /** The first file's sanitized relative path. */
  fileName: string;
  /** 0 when the sender announced no usable size (docs/protocol.md, "Per-file sequence"). */
  fileSize: number;
  total: number;
  totalBytes: number;
  sender: PeerVersion;
  /** The batch's files in order, when the sender listed them; the rule for each later metadata. */
  files?: ListedEntry[];
  /** The batch is a text message, taken into memory and shown (docs/protocol.md, "Text messages"). */
  text?: true;
}

export type ReceiverEvent =
  | { type: 'channel-open' }
  | { type: 'frame'; frame: Frame }
  /**
   * The person accepted. `resumable: false`: where it goes cannot keep a partial file (a browser's
   * downloads), so resume and reconnect are not announced for this batch. `checksFreeSpace`:
   * where it goes can tell its free space (see ReceiverConfig), whatever the config said.
   */
  | { type: 'accepted'; resumable?: boolean; checksFreeSpace?: boolean }
  /** The file is open; `offset` bytes of it were already here, `prefix` their digest (resume). */
  | { type: 'part-opened'; index: number; offset: number; prefix?: string }
  /** The file's bytes did not match the sender's digest; the driver has discarded it. */
  | { type: 'verify-failed'; index: number }
  /**
   * The person declined. `unable`: nobody chose; this side could not take the batch (its target
   * failed), so the sender is not told it was declined.
   */
  | { type: 'declined'; unable?: boolean }
  /**
   * The answer to `derive-words`: the verification words, and the SHA-256 (hex) of the nonce the
   * sender revealed, which must be the commitment it announced.
   */
  | { type: 'words-derived'; words: string; revealedCommit: string }
  /** `derive-words` could not be carried out (the runtime's digest failed). */
  | { type: 'words-failed'; detail: string }
  /** The answer to `prove-link`: this side's proof, and the one the sender must have sent. */
  | { type: 'link-proved'; own: string; expected: string }
  /** `prove-link` could not be carried out (the runtime's HMAC failed). */
  | { type: 'link-failed'; detail: string }
  /**
   * What `read-free-space` found: undefined when the target cannot tell. `reserveBytes` of it
   * must stay free (src-shared/protocol/free-space-reserve.ts); none when absent.
   */
  | {
      type: 'free-space';
      index: number;
      freeBytes: number | undefined;
      reserveBytes?: number;
      folder?: string;
    }
  /** The disk confirmed a write; it counts as progress for the no-progress timer. */
  | { type: 'bytes-written'; bytes: number }
  | { type: 'write-failed'; detail: string }
  | { type: 'timer-fired'; timer: ReceiverTimer }
  | { type: 'channel-closed' }
  | { type: 'cancel' };

/** `index` is the file's 0-based position in the batch (the wire's metadata index minus one). */
export type ReceiverAction =
  /**
   * `early`: sent before the batch is accepted (this side's `ferry-caps` asking for the file
   * list), so it does not yet mean the transfer has started.
   */
  | { type: 'send'; frame: Frame; early?: boolean }
  | { type: 'ask-accept'; offer: Offer }
  /**
   * Derive the verification words from both nonces and the connection's fingerprints
   * (src-shared/verify/sas.ts), and hash the sender's nonce; answer with `words-derived`.
   */
  | { type: 'derive-words'; senderNonce: string; receiverNonce: string }
  /**
   * Compute both link proofs from the secret, both nonces and the connection's fingerprints
   * (src-shared/verify/link-secret.ts); answer with `link-proved`.
   */
  | { type: 'prove-link'; senderNonce: string; receiverNonce: string }
  /** Read how much may still be written where the batch goes; answer with `free-space`. */
  | { type: 'read-free-space'; index: number }
  /**
   * `path` is sanitized, relative and `/`-separated; `fileSize` 0 when none was announced.
   * `resume`: look for what a earlier try left of this file (answer with `part-opened`).
   */
  | {
      type: 'open-part';
      index: number;
      path: string;
      fileSize: number;
      resume?: { senderFileId: string };
      /** A text message: held in memory and shown, never saved (docs/protocol.md, "Text messages"). */
      text?: true;
    }
  | { type: 'write'; index: number; bytes: Uint8Array }
  /** The sender refused the resume: the file starts over from its first byte. */
  | { type: 'restart-part'; index: number }
  /** `sha256`: give the file its final name only if what arrived has this digest. */
  | { type: 'commit'; index: number; sha256?: string }
  /** `keep`: leave what arrived, and its sidecar, for a later resume. */
  | { type: 'discard'; index: number; keep: boolean }
  /** `offset` bytes of the file were already here and need not travel again. */
  | { type: 'file-resumed'; index: number; offset: number }
  | TimerAction<ReceiverTimer>
  | {
      type: 'progress';
      index: number;
      total: number;
      fileBytes: number;
      fileSize: number;
      bytesDone: number;
      totalBytes: number;
    }
  /** `bytes`: what travelled in this batch; `verified` when every file's digest was checked. */
  | { type: 'complete'; files: number; bytes: number; verified?: boolean }
  | ({ type: 'fail' } & Failure)
  | { type: 'close'; flushMs: number };

export type ReceiverState =
  | { phase: 'idle' }
  | { phase: 'awaiting-metadata'; index: number }
  /**
   * The sender lists its files and reveals its verification nonce before the person is asked
   * (docs/protocol.md, "File list", "Verification words").
   */
  | { phase: 'awaiting-sender'; index: number }
  | { phase: 'awaiting-answer'; index: number }
  | { phase: 'checking-space'; index: number }
  | { phase: 'opening'; index: number }
  | {
      phase: 'receiving';
      index: number;
      id: string;
      path: string;
      fileSize: number;
      written: number;
      /** A resume was offered: no byte may come before the sender's `ferry-start`. */
      awaitingStart: boolean;
    }
  | { phase: 'awaiting-digest'; index: number; id: string; path: string; written: number }
  | { phase: 'done'; files: number; bytes: number }
  | ({ phase: 'failed' } & Failure);

export interface ReceiverMachine {
  readonly state: ReceiverState;
  /** The extensions both sides announced; empty until the sender's `ferry-caps` arrives. */
  readonly agreed: ReadonlySet<Capability>;
  /**
   * What this side knows of the other device, from the batch's first metadata on: the
   * verification words, or that it cannot show any. Always known before the person is asked.
   */
  readonly peerCheck: PeerCheck | undefined;
  /** The name the sender announced beside `device`, once both named it (cleaned). */
  readonly peerName: string | undefined;
  /** The sender's share of the pair secret, once both named `pair`. */
  readonly peerPairShare: string | undefined;
  /**
   * What the other side's first metadata said of its release: `ver` when it sent one (a
   * browser sends none); undefined until one came.
   */
  readonly peerRelease: { ver?: string } | undefined;
  /** The sender's secret for meeting again after a lost link, once `reconnect` was agreed. */
  readonly rejoinSecret: string | undefined;
  handle(event: ReceiverEvent): ReceiverAction[];
}
