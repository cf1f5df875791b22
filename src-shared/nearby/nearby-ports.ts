import type { ExpectedPeer } from '../session/expected-peer';

// The seams of issue 36 ("Devices you can see"), shared by every surface (docs/protocol.md,
// "Presence" and "Pair rooms"; docs/architecture.md, "Nearby devices"). Each runtime supplies the
// ports below as thin adapters; the rules live in src-shared.

/** What kind of Ferry program a device is, as the presence roster shows it. */
export type DeviceKind = 'desktop' | 'cli' | 'browser';

/** How a program introduces itself to a LAN room's roster. */
export interface PresenceIntro {
  /** Cleaned with cleanDeviceName before it is sent; the server cleans it again. */
  name: string;
  kind: DeviceKind;
}

/** One device in a server's presence roster: the server draws `id`, short and random. */
export interface PresenceEntry extends PresenceIntro {
  id: string;
}

/** An invitation that reached this device through the roster: `from` asks it to join `roomId`. */
export interface PresenceInvite {
  from: PresenceEntry;
  roomId: string;
}

/**
 * This program's place in one server's presence roster (docs/protocol.md, "Presence"), held while
 * the program is open. Closing it leaves the roster; a lost socket ends it (`ended`).
 */
export interface PresenceSeat {
  /** The id the server gave this program. */
  readonly self: string;
  /** Everyone else on the roster, as last told. */
  devices(): readonly PresenceEntry[];
  /** Called with the whole roster (this program excluded) on every change. */
  onChange(listener: (devices: readonly PresenceEntry[]) => void): () => void;
  onInvite(listener: (invite: PresenceInvite) => void): () => void;
  /** Asks the device `to` to join `roomId`; the server passes it to that device alone. */
  invite(to: string, roomId: string): void;
  /** Settles when the seat is gone: closed here, or its socket lost. */
  readonly ended: Promise<void>;
  close(): void;
}

/**
 * Joins the roster of the server a runtime talks to. Undefined when that server keeps no roster
 * (presence is off, or it is not Ferry's): then nothing is shown and nothing else changes.
 */
export type OpenPresence = (
  intro: PresenceIntro,
  cancelled: AbortSignal,
) => Promise<PresenceSeat | undefined>;

/** A remembered device's pair room, with what is needed to wait in it (docs/protocol.md, "Pair rooms"). */
export interface PairedDevice {
  fingerprint: string;
  name: string;
  /** 64 hex digits agreed in-band with that device; the room id and invitation proofs derive from it. */
  pairSecret: string;
}

/**
 * Waits in the pair rooms of the remembered devices that have a pair secret, while the program is
 * open: a device is online while it waits in the same room. Invitations that carry the right
 * proof reach `onInvite`; any other is dropped.
 */
export interface PairRooms {
  /** The fingerprints of the paired devices online now. */
  online(): ReadonlySet<string>;
  onChange(listener: (online: ReadonlySet<string>) => void): () => void;
  /** An invitation from a paired device, its proof checked: join `roomId` and expect that device. */
  onInvite(listener: (invite: { device: PairedDevice; roomId: string }) => void): () => void;
  /** Asks the paired device `fingerprint` (online now) to join `roomId`. */
  invite(fingerprint: string, roomId: string): Promise<void>;
  /** The paired devices changed (remembered, renamed, forgotten): rooms are joined and left to match. */
  update(devices: readonly PairedDevice[]): void;
  close(): void;
}

/**
 * How a send without a code reaches its one device (docs/protocol.md, "Pair rooms" and
 * "Presence"): the send flow draws the room, joins it as the sender, then `deliver`s the room id to
 * that device, which joins as the receiver.
 */
export interface Reach {
  /** The device's name as this side shows it: "Waiting for <name> to answer". */
  name: string;
  /** Only a remembered device is pinned; a roster device is checked by the words. */
  expectPeer?: ExpectedPeer;
  deliver(roomId: string, cancelled: AbortSignal): Promise<void>;
}
