import {
  ABORT_REASON_FLUSH_MS,
  ACK_TIMEOUT_MS,
  BYTE_COUNT_REPORT_TIMEOUT_MS,
  CODE_RELEASE_TIMEOUT_MS,
  CHANNEL_GRACE_MS,
  CODE_REQUEST_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  DELIVERY_TIMEOUT_MS,
  DRAIN_STALL_TIMEOUT_MS,
  OFFER_ANSWER_TIMEOUT_MS,
  RECEIVER_FIRST_DATA_TIMEOUT_MS,
  RECEIVER_NO_PROGRESS_TIMEOUT_MS,
  RECEIVER_TEARDOWN_GRACE_MS,
  RELAY_CREDENTIALS_TIMEOUT_MS,
  ROLE_WAIT_TIMEOUT_MS,
  type RemedySurface,
} from '../../src-shared/protocol';
import { CONNECT_ATTEMPT_TIMEOUT_MS } from '../../src-shared/session/session-limits';
import type { IceServerEntry } from '../../src-shared/signaling/http-api';
import type { SignalPayload } from '../../src-shared/signaling/signal-payload';
import { CODE_LIFETIME_MS } from '../../src-shared/signaling/limits';
import type { Frame } from '../../src-shared/protocol/frame';
import type { Capability } from '../../src-shared/protocol/messages';
import type { FreeSpace } from '../../src-shared/session/save-target';
import type { OfferView, PeerCheck } from '../../src-shared/transfer/transfer-view';
import type { DownloadMark } from './download-mark';
import type { DeviceSetting } from '../../src-shared/devices/peer-identity';
import type { ExpectedPeer } from '../../src-shared/session/expected-peer';
import type { Reach } from '../../src-shared/nearby/nearby-ports';

/**
 * Every deadline of a native peer in milliseconds (docs/protocol.md, "Setup deadlines" and
 * "Transfer deadlines"); tests shorten them.
 */
export interface EngineTimeouts {
  /** Registering or resolving a code over HTTP. */
  codeRequest: number;
  /** Fetching relay credentials; then STUN only, with a warning. */
  relayCredentials: number;
  /** Being given a role after join-room (opening /ws has SOCKET_CONNECT_TIMEOUT_MS). */
  roleWait: number;
  /** Waiting for the other peer's offer or answer. */
  offerAnswer: number;
  /** ICE, DTLS and the data channel opening, every retry included. */
  connect: number;
  /** One connection attempt; a failed one is retried while `connect` lasts. */
  connectAttempt: number;
  /** Sender: how long a receiver may take to join (the code's lifetime). */
  peerJoin: number;
  /** The data channel opening once the peers are connected. */
  channelGrace: number;
  /** Sender waiting for a file's ack. */
  ack: number;
  /** Sender whose send buffer does not shrink at all. */
  drainStall: number;
  /** Sender waiting for delivery confirmation with no drain. */
  delivery: number;
  /** Receiver connected with no data yet. */
  firstData: number;
  /** Receiver mid-transfer with no progress. */
  noProgress: number;
  /** Receiver's wait before teardown, so its final acknowledgement reaches the sender. */
  teardownGrace: number;
  /** Reporting the byte count to the server. */
  report: number;
  /** Telling the server how the code ended. */
  release: number;
  /** Flushing an abort reason (or any last frame) before closing. */
  abortFlush: number;
}

export const DEFAULT_TIMEOUTS: EngineTimeouts = {
  codeRequest: CODE_REQUEST_TIMEOUT_MS,
  relayCredentials: RELAY_CREDENTIALS_TIMEOUT_MS,
  roleWait: ROLE_WAIT_TIMEOUT_MS,
  offerAnswer: OFFER_ANSWER_TIMEOUT_MS,
  connect: CONNECT_TIMEOUT_MS,
  connectAttempt: CONNECT_ATTEMPT_TIMEOUT_MS,
  peerJoin: CODE_LIFETIME_MS,
  channelGrace: CHANNEL_GRACE_MS,
  ack: ACK_TIMEOUT_MS,
  drainStall: DRAIN_STALL_TIMEOUT_MS,
  delivery: DELIVERY_TIMEOUT_MS,
  firstData: RECEIVER_FIRST_DATA_TIMEOUT_MS,
  noProgress: RECEIVER_NO_PROGRESS_TIMEOUT_MS,
  teardownGrace: RECEIVER_TEARDOWN_GRACE_MS,
  report: BYTE_COUNT_REPORT_TIMEOUT_MS,
  release: CODE_RELEASE_TIMEOUT_MS,
  abortFlush: ABORT_REASON_FLUSH_MS,
};

/**
 * Which routes the connection may take: `any` uses the server's STUN and TURN entries, `relay-only`
 * only TURN relays, `host-only` only this network's own addresses (no STUN, no TURN, nothing
 * fetched), as a LAN room wants.
 */
export type RoutePolicy = 'any' | 'relay-only' | 'host-only';

export interface PeerOptions {
  /** The signaling server's base address, e.g. http://localhost:3001. */
  serverUrl: string;
  /**
   * The SHA-256 fingerprint of the certificate an https `serverUrl` must present, accepted
   * instead of one an authority signed: a LAN room's own (docs/architecture.md, "The LAN room
   * over HTTPS"). Unset: the system's authorities decide, as for any site.
   */
  serverCertificate?: string;
  /** ICE servers to use instead of fetching the server's list. */
  iceServers?: readonly IceServerEntry[];
  route?: RoutePolicy;
  timeouts?: Partial<EngineTimeouts>;
  /** The release string this peer advertises (`ver`): the CLI sends package.json's version. */
  ver?: string;
  /** The protocol range this peer advertises; defaults to this build's. Tests vary it. */
  protocolVersion?: { pv: number; pvMin: number };
  /** Where failures are shown, which decides the wording of a version remedy. */
  remedySurface: Exclude<RemedySurface, 'browser'>;
  /**
   * The engine's test seam, not a feature: decides which negotiation payloads pass this peer's
   * signaling seat, each way, so a test can make a connection attempt find no route.
   */
  signalFilter?: (payload: SignalPayload, direction: 'in' | 'out') => boolean;
  /**
   * Whether to offer Ferry's extensions (verification, resume: docs/protocol.md, "Ferry's
   * extensions"). Default true; false speaks the spec's wire alone, as benchmarks compare.
   */
  extensions?: boolean;
  /**
   * How many connections a batch is striped over when the other peer speaks `lanes`, the first
   * included (docs/protocol.md, "Lanes"). Default LANE_COUNT; 1 keeps to one connection and does
   * not announce `lanes`.
   */
  lanes?: number;
  /**
   * The engine's test seam for `lanes`: the shortest measured round trip over which a sender opens
   * them (default LANE_MIN_ROUND_TRIP_MS). Tests on loopback set 0 to stripe anyway.
   */
  laneMinRoundTripMs?: number;
  /**
   * This installation's persistent certificate, name and remembered devices (devices/
   * installation.ts; docs/protocol.md, "Remembered devices"). Without it every connection has a
   * fresh certificate and `device` is not offered.
   */
  identity?: EngineIdentity;
  /**
   * Only this remembered device may be on the other end: any other is refused before a frame
   * moves (ERR_UNEXPECTED_DEVICE).
   */
  expectPeer?: ExpectedPeer;
}

export interface EngineIdentity {
  /** The certificate and its key in one PEM file, for node-datachannel. */
  pemFile: string;
  devices: DeviceSetting;
}

/** Lets a test play a sender that lies about its files; the engine's test seam, not a feature. */
export interface SendTestSeam {
  /** Replaces what the metadata of file `index` announces; the real bytes are sent regardless. */
  announce?: (
    file: { name: string; size: number },
    index: number,
  ) => { fileName?: string; fileSize?: number };
  /** Replaces each frame this sender sends on the data channel, to play a sender that cheats. */
  outgoing?: (frame: Frame) => Frame;
}

export interface SendOptions extends PeerOptions {
  /** Files and folders to send, in order. */
  paths: readonly string[];
  /**
   * Asked once the other device's verification words are known, or known to be missing; no
   * file data leaves before the answer, and false stops the transfer (ERR_NOT_CONFIRMED).
   * Without it the data goes as soon as the receiver accepts and the words are shown.
   */
  onPeerCheck?: (check: PeerCheck) => Promise<boolean>;
  /**
   * Sends to this one device without a code (docs/protocol.md, "Pair rooms"): no code is
   * registered, and a device that does not come fails with ERR_NOT_ONLINE.
   */
  reach?: Reach;
  testSeam?: SendTestSeam;
}

/** A text sent as a text message instead of files (docs/protocol.md, "Text messages"). */
export type SendTextOptions = Omit<SendOptions, 'paths'> & {
  /** At most TEXT_MESSAGE_MAX_BYTES of UTF-8, and not empty. */
  text: string;
};

/** Lets a test play a receiver whose disk is fuller than it is; the engine's test seam. */
export interface ReceiveTestSeam {
  /** Replaces the free-space reading of the folder the batch goes into. */
  freeSpace?: (folder: string) => Promise<FreeSpace>;
  /** Capabilities left unspoken, to play an older Ferry receiver. */
  withoutCaps?: readonly Capability[];
}

/** Accept or decline, or accept into another folder than `destination` (the person changed it). */
export type OfferAnswer = boolean | { destination: string };

export interface ReceiveOptions extends PeerOptions {
  /** The code as a person typed it; it is trimmed and lowercased before use. Empty with `roomId`. */
  code: string;
  /**
   * An invitation to this room from a paired or nearby device (docs/protocol.md, "Pair rooms"):
   * no code is resolved. Set `expectPeer` to the paired device that invited.
   */
  roomId?: string;
  /**
   * The secret a receive link carried beside the code (docs/protocol.md, "Secret link"): the
   * sender must prove it holds the same, or the transfer stops as intercepted.
   */
  linkSecret?: string;
  /** The folder the batch lands in; created when missing. */
  destination: string;
  /** Asked before anything is acknowledged; without it every offer is accepted. */
  onOffer?: (offer: OfferView) => Promise<OfferAnswer>;
  /**
   * With `onOffer`: an offer this returns true for goes into `destination` without asking, and
   * no prompt is published (the desktop app's quick save from a remembered device).
   */
  acceptsAtOnce?: (offer: OfferView) => boolean;
  /** Whether to add the received byte count to the server's anonymous counter. Default true. */
  reportBytes?: boolean;
  /**
   * Marks each received file as coming from another device once it has its final name
   * (download-mark.ts); defaults to this platform's mark. Tests record it instead.
   */
  downloadMark?: DownloadMark;
  testSeam?: ReceiveTestSeam;
}
