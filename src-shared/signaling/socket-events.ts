// The event-socket (socket.io, path /socket.io/) vocabulary, typed for both ends:
// `Server<ClientToServerEvents, ServerToClientEvents>` and
// `Socket<ServerToClientEvents, ClientToServerEvents>`.
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
}

export interface ServerToClientEvents {
  'room-joined': (payload: { role: PeerRole }) => void;
  /** To the sender, when the receiver joins: the receiver's peer id. */
  'user-connected': (peerId: string) => void;
  signal: (payload: { signal: SignalPayload; sender: string }) => void;
  'peer-disconnected': (payload: EmptyPayload) => void;
  'room-full': (payload: EmptyPayload) => void;
  error: (payload: { message: string }) => void;
}
