import type { PeerCheck } from '../transfer/transfer-view';
import type { Failure } from './error-codes';
import type { Frame } from './frame';
import type { Surface } from './frame-classification';
import type { Capability } from './messages';
import type { TimerAction } from './timer-actions';
import type { PeerVersion } from './version-negotiation';
import type { RemedySurface } from './version-remedy';

// The sender machine's contract (docs/protocol-machines.md, "Sender"): what its driver
// configures, feeds in and carries out. The machine itself is sender.ts.

export interface SenderFile {
  /** Chosen by the driver; the receiver echoes it in the ack. */
  id: string;
  /** The relative path the sender shows, `/`-separated. */
  fileName: string;
  fileSize: number;
}

export interface SenderConfig {
  files: readonly SenderFile[];
  /**
   * Ferry's extensions this side offers, announced in `ferry-caps` before the first metadata;
   * empty for the spec's wire alone (docs/protocol.md, "Capabilities").
   */
  caps?: readonly Capability[];
  /**
   * This connection's fresh `sas` nonce and its commitment (SHA-256, both lowercase hex); without
   * them `sas` is not offered (docs/protocol.md, "Verification words").
   */
  sas?: { nonce: string; commit: string };
  /**
   * A person confirms the verification words, or goes on without any, before a byte of file data
   * leaves: the first ack is held until `peer-confirmed`.
   */
  confirmsPeer?: boolean;
  /**
   * This side holds the secret its receive link carries: `link` is offered beside `sas`
   * (docs/protocol.md, "Secret link").
   */
  holdsLinkSecret?: boolean;
  /** This installation's name, announced beside `device` (docs/protocol.md, "Remembered devices"). */
  deviceName?: string;
  /**
   * A fresh secret, 32 bytes in lowercase hex, announced beside `reconnect`: where the two meet
   * again after a lost link derives from it; without one `reconnect` is not offered
   * (docs/protocol.md, "Reconnect").
   */
  rejoinSecret?: string;
  /**
   * The batch is a text message, one `message.txt`: said beside `text` so that a receiver that
   * agrees shows it instead of saving it (docs/protocol.md, "Text messages").
   */
  textMessage?: boolean;
  /**
   * A fresh share of the pair secret, 32 bytes in lowercase hex, announced beside `pair`; without
   * one `pair` is not offered (docs/protocol.md, "Pair rooms").
   */
  pairShare?: string;
  local: PeerVersion;
  surface: Surface;
  remedySurface: RemedySurface;
}

export type SenderTimer = 'ack' | 'drain' | 'delivery' | 'received';

/** `index` is the 0-based position in `config.files`; the wire's metadata index is one more. */
export type SenderEvent =
  | { type: 'channel-open'; relayed: boolean }
  | { type: 'frame'; frame: Frame }
  /** `digest`: the file's content digest, when the receiver verifies. */
  | { type: 'file-streamed'; index: number; digest?: string }
  /** Whether this side's own digest of `[0, offset)` is the prefix the receiver offered. */
  | { type: 'prefix-checked'; index: number; match: boolean }
  | { type: 'source-changed'; index: number; detail: string }
  | { type: 'source-unreadable'; index: number; detail: string }
  /** The answer to `derive-words`. */
  | { type: 'words-derived'; words: string }
  /** `derive-words` could not be carried out (the runtime's digest failed). */
  | { type: 'words-failed'; detail: string }
  /** The answer to `prove-link`: this side's proof, and the one the receiver must send. */
  | { type: 'link-proved'; own: string; expected: string }
  /** `prove-link` could not be carried out (the runtime's HMAC failed). */
  | { type: 'link-failed'; detail: string }
  /** With `confirmsPeer`: the person saw the peer check and goes on. */
  | { type: 'peer-confirmed' }
  /** With `confirmsPeer`: the words differ, or the person will not go on without any. */
  | { type: 'peer-rejected' }
  | { type: 'buffered-amount'; bytes: number }
  | { type: 'timer-fired'; timer: SenderTimer }
  | { type: 'channel-closed' }
  | { type: 'cancel' };

export type SenderAction =
  | { type: 'send'; frame: Frame }
  /**
   * Derive the verification words from both nonces and the connection's fingerprints
   * (src-shared/verify/sas.ts); answer with `words-derived`.
   */
  | { type: 'derive-words'; senderNonce: string; receiverNonce: string }
  /**
   * Compute both link proofs from the secret, both nonces and the connection's fingerprints
   * (src-shared/verify/link-secret.ts); answer with `link-proved`.
   */
  | { type: 'prove-link'; senderNonce: string; receiverNonce: string }
  | { type: 'stream-file'; index: number; offset: number }
  /** Hash `[0, offset)` of the file and compare with the receiver's `prefix` (docs/protocol.md, "Resume"). */
  | { type: 'check-prefix'; index: number; offset: number; prefix: string }
  /** The receiver already had `offset` bytes of the file, and the sender's digests agree. */
  | { type: 'file-resumed'; index: number; offset: number }
  /** The receiver confirmed the file's digest: it has the file, verified, under its final name. */
  | { type: 'file-verified'; index: number }
  /**
   * With `progress` agreed, the receiver has taken `bytes` of file `index` (from 0): what this
   * side's progress shows (docs/protocol.md, "Progress").
   */
  | { type: 'peer-progress'; index: number; bytes: number }
  | { type: 'watch-buffer' }
  | TimerAction<SenderTimer>
  /**
   * `confirmed`: true when the receiver's `received` ended the batch, false when a receiver that
   * sends it never did; absent when the batch ended by the spec's drain rule alone.
   */
  | { type: 'complete'; files: number; bytes: number; confirmed?: boolean; verified?: boolean }
  | ({ type: 'fail' } & Failure)
  | { type: 'close'; flushMs: number };

export type SenderState =
  | { phase: 'idle' }
  | { phase: 'awaiting-ack'; index: number }
  /** The first ack is in; file data waits for the verification words, or for the person. */
  | { phase: 'confirming'; index: number }
  | { phase: 'checking-prefix'; index: number; offset: number; prefix: string }
  | { phase: 'streaming'; index: number; offset: number }
  /** `drained`: the buffer is empty and a confirming receiver's `received` is awaited. */
  | { phase: 'awaiting-delivery'; drained: boolean }
  | { phase: 'done'; files: number; bytes: number; confirmed?: boolean; verified?: boolean }
  | ({ phase: 'failed' } & Failure);

export interface SenderMachine {
  readonly state: SenderState;
  /** The extensions both sides announced; empty until the receiver's `ferry-caps` arrives. */
  readonly agreed: ReadonlySet<Capability>;
  /**
   * What this side knows of the other device: the verification words once derived, or, at the
   * first ack from a receiver that gave no nonce, that it cannot show any.
   */
  readonly peerCheck: PeerCheck | undefined;
  /** The name the receiver announced beside `device`, once both named it (cleaned). */
  readonly peerName: string | undefined;
  /** The receiver's share of the pair secret, once both named `pair`. */
  readonly peerPairShare: string | undefined;
  /**
   * What the other side's first ack said of its release: `ver` when it sent one (a
   * browser sends none); undefined until one came.
   */
  readonly peerRelease: { ver?: string } | undefined;
  handle(event: SenderEvent): SenderAction[];
}
