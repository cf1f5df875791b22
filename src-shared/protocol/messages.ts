/**
 * The control messages of the data-channel protocol, field for field as docs/protocol.md,
 * "Messages" lists them. Binary chunks carry file data and have no type here: a binary frame
 * from a sender is data.
 */

/** What a peer advertises about itself; absent `pv`/`pvMin` mean version 1 (peers before 1.6.0). */
export interface VersionAdvert {
  /** Highest protocol version the peer speaks. */
  pv?: number;
  /** Lowest protocol version the peer supports. */
  pvMin?: number;
  /**
   * Release string, informational only: `<semver>` from the command line, `desktop-v<semver>`
   * from the desktop app, `dev` from a source build, absent from browsers.
   */
  ver?: string;
}

/** Sender to receiver, before each file. */
export interface MetadataMessage extends VersionAdvert {
  type: 'metadata';
  /** Per-file identifier, echoed by the ack. */
  id: string;
  /** The name as the sender sees it, with a `/`-separated relative path when a folder is sent. */
  fileName: string;
  fileSize: number;
  /** Position in the batch, 1-based. */
  index: number;
  /** Number of files in the batch. */
  total: number;
  /** Batch size in bytes; older senders send 0 for a single file. */
  totalBytes: number;
}

/** Receiver to sender, once per file, before any bytes move. */
export interface AckMessage extends VersionAdvert {
  type: 'ack';
  /** The metadata id. */
  id: string;
  /** Where the sender starts reading; 0 from every current receiver. */
  offset: number;
}

/** Sender to receiver, after the last chunk of a file. */
export interface EndMessage {
  type: 'end';
}

/** Native receiver to sender, once after the whole batch. */
export interface ReceivedMessage {
  type: 'received';
}

/** Either direction: a version mismatch in place of the ack, or a deliberate abort with a reason. */
export interface IncompatibleMessage extends VersionAdvert {
  type: 'incompatible';
  reason: string;
}

export type ControlMessage =
  MetadataMessage | AckMessage | EndMessage | ReceivedMessage | IncompatibleMessage;

export type ControlType = ControlMessage['type'];

/**
 * Metadata as a receiver reads it off the wire: `fileSize` is undefined when the sender announced
 * no usable size, which the spec's error table lets receivers survive.
 */
export type IncomingMetadata = Omit<MetadataMessage, 'fileSize'> & { fileSize: number | undefined };

/** What a receiver can be told by a sender. */
export type SenderMessage = IncomingMetadata | EndMessage | IncompatibleMessage;

/** What a sender can be told by a receiver. */
export type ReceiverMessage = AckMessage | ReceivedMessage | IncompatibleMessage;

/**
 * Ferry's extensions (docs/protocol.md, "Ferry's extensions"): new message types, which the spec's
 * versioning rule 6 lets every older or spec-only peer ignore. A peer sends them only once the
 * other side announced the capability they belong to, except `ferry-caps` itself.
 */
export const CAPABILITIES = [
  'verify',
  'resume',
  'reconnect',
  'list',
  'sas',
  'link',
  'device',
  'outcome',
  'text',
  'lanes',
  'lane-mtu',
  'progress',
  'pair',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Either way: the capabilities this side speaks. The sender's comes first; a receiver only answers one. */
export interface CapsMessage {
  type: 'ferry-caps';
  caps: Capability[];
  /**
   * Sender's, beside `sas`: SHA-256 of its fresh nonce, lowercase hex. It binds the sender to a
   * nonce before it sees the receiver's (docs/protocol.md, "Verification words").
   */
  commit?: string;
  /** Receiver's, beside `sas`: its fresh 32-byte nonce, lowercase hex. */
  nonce?: string;
  /**
   * Either side's, beside `device`: the name its installation goes by, cleaned on reading; only a
   * suggestion for "Remember this device as" (docs/protocol.md, "Remembered devices").
   */
  name?: string;
  /**
   * Sender's, beside `text`: true when its batch is a text message, one `message.txt` a receiver
   * that agreed `text` shows instead of saving (docs/protocol.md, "Text messages").
   */
  text?: boolean;
  /**
   * Sender's, beside `reconnect`: a fresh 32-byte secret, lowercase hex, from which both sides
   * derive the room they meet in after a lost link (docs/protocol.md, "Reconnect"). Without one,
   * `reconnect` is not agreed.
   */
  rejoin?: string;
  /**
   * Either side's, beside `pair`: a fresh 32-byte share, lowercase hex. Both shares and both DTLS
   * fingerprints make the pair secret two remembered devices keep (docs/protocol.md, "Pair
   * rooms"). Without one from each side, `pair` is not agreed.
   */
  pair?: string;
}

/** Receiver to sender, just before an ack with a non-zero offset: what it already has of the file. */
export interface ResumeMessage {
  type: 'ferry-resume';
  id: string;
  offset: number;
  /** SHA-256, lowercase hex, of the block digests covering `[0, offset)`. */
  prefix: string;
}

/** Sender to receiver, after an ack that offered a resume: where the bytes really start. */
export interface StartMessage {
  type: 'ferry-start';
  id: string;
  offset: number;
}

/** Sender to receiver, after a file's `end`: the file's digest. */
export interface DigestMessage {
  type: 'ferry-digest';
  id: string;
  sha256: string;
}

/** Receiver to sender: the file's digest matched and it has its final name. */
export interface VerifiedMessage {
  type: 'ferry-verified';
  id: string;
}

/**
 * Receiver to sender, beside `progress`: how far the receiver has taken the batch, as its own
 * progress shows it, so both screens count the same bytes (docs/protocol.md, "Progress").
 */
export interface ProgressMessage {
  type: 'ferry-progress';
  /** The file, from 1, as `metadata.index`. */
  index: number;
  /** Bytes of that file the receiver has taken, bytes it kept from before included. */
  bytes: number;
}

/** Either way, every second while a batch runs between peers that announced `reconnect`. */
export interface AliveMessage {
  type: 'ferry-alive';
}

/** One file of a `ferry-list`: its name as its metadata will announce it, and its size. */
export interface ListedFile {
  name: string;
  size: number;
}

/**
 * Sender to receiver, while the first ack is awaited, once the receiver's `ferry-caps` named
 * `list`: the batch's files in order, over as many frames as it takes (docs/protocol.md,
 * "File list"). `more` is false on the last one.
 */
export interface ListMessage {
  type: 'ferry-list';
  files: ListedFile[];
  more: boolean;
}

/**
 * Sender to receiver, once, when the receiver's `ferry-caps` named `sas` with its nonce: the
 * nonce the sender committed to. Both sides then know the verification words.
 */
export interface SasRevealMessage {
  type: 'ferry-sas-reveal';
  nonce: string;
}

/**
 * Either way, once, when both named `link`: HMAC-SHA256 keyed with the secret link's secret over
 * both nonces and both fingerprints, in lowercase hex (docs/protocol.md, "Secret link"). The
 * sender's follows its reveal; the receiver's, once it checked the sender's, precedes its first ack.
 */
export interface LinkProofMessage {
  type: 'ferry-link-proof';
  mac: string;
}

/** What a person chose that ended the batch: the receiver's decline, or either side's cancel. */
export type Outcome = 'declined' | 'cancelled';

/**
 * Either way, once, just before a peer closes the channel on its person's choice, when the other
 * side announced `outcome` (docs/protocol.md, "Named outcomes"). A sender only ever says `cancelled`.
 */
export interface OutcomeMessage {
  type: 'ferry-outcome';
  outcome: Outcome;
}

export type ExtensionMessage =
  | CapsMessage
  | OutcomeMessage
  | SasRevealMessage
  | LinkProofMessage
  | ResumeMessage
  | StartMessage
  | DigestMessage
  | VerifiedMessage
  | AliveMessage
  | ListMessage
  | ProgressMessage;

export type ExtensionType = ExtensionMessage['type'];

/** What a receiver can be told by a sender, extensions included. */
export type SenderWireMessage =
  | SenderMessage
  | CapsMessage
  | StartMessage
  | DigestMessage
  | AliveMessage
  | ListMessage
  | SasRevealMessage
  | LinkProofMessage
  | OutcomeMessage;

/** What a sender can be told by a receiver, extensions included. */
export type ReceiverWireMessage =
  | ReceiverMessage
  | CapsMessage
  | ResumeMessage
  | VerifiedMessage
  | AliveMessage
  | LinkProofMessage
  | OutcomeMessage
  | ProgressMessage;
