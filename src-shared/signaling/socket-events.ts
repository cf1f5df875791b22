// The event-socket (socket.io, path /socket.io/) vocabulary, typed for both ends:
// `Server<ClientToServerEvents, ServerToClientEvents>` and
// `Socket<ServerToClientEvents, ClientToServerEvents>`.
import type { DeviceKind, PresenceEntry } from '../nearby/nearby-ports';
import type { PeerRole } from './peer-role';
import type { SignalPayload } from './signal-payload';

/** The payload of a client's `signal`: `target` names the other peer, `roomId` the shared room. */
export interface SocketSignalRequest {
  signal: SignalPayload;
  target?: string;
  roomId?: string;
}

export type EmptyPayload = Record<string, never>;

export interface ClientToServerEvents {
  /** The room id is a UUID. */
  'join-room': (roomId: string) => void;
  signal: (request: SocketSignalRequest) => void;
  /** Keepalive: the server invokes the callback at once. */
  ping: (callback: () => void) => void;
  // Ferry's presence extension (docs/protocol.md, "Presence"): a server without it answers these
  // like any unknown event.
  'presence-join': (intro: { name: string; kind: DeviceKind }) => void;
  'presence-invite': (invite: { to: string; roomId: string }) => void;
  'presence-leave': () => void;
}

export interface ServerToClientEvents {
  'room-joined': (payload: { role: PeerRole }) => void;
  /** To the sender, when the receiver joins: the receiver's peer id. */
  'user-connected': (peerId: string) => void;
  signal: (payload: { signal: SignalPayload; sender: string }) => void;
  'peer-disconnected': (payload: EmptyPayload) => void;
  'room-full': (payload: EmptyPayload) => void;
  error: (payload: { message: string }) => void;
  // Presence (docs/protocol.md, "Presence"): only to a socket that joined the roster.
  presence: (payload: { self: string; devices: PresenceEntry[] }) => void;
  'presence-invite': (payload: { from: PresenceEntry; roomId: string }) => void;
}
