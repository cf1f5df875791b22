// The WebSocket transport (path /ws) vocabulary: every message is one JSON object with a `type`.
import type { PeerRole } from './peer-role';
import type { SignalPayload } from './signal-payload';

export type WsClientMessage =
  | { type: 'join-room'; roomId: string }
  /** `roomId` names the room the sender is in; the server relays within that room only. */
  | { type: 'signal'; signal: SignalPayload; roomId?: string }
  | { type: 'ping' };

export type WsServerMessage =
  | { type: 'room-joined'; role: PeerRole }
  /** To the sender, when the receiver joins: the receiver's peer id. */
  | { type: 'user-connected'; id: string }
  | { type: 'signal'; signal: SignalPayload; sender: string }
  | { type: 'peer-disconnected' }
  | { type: 'room-full' }
  | { type: 'pong' }
  | { type: 'error'; message: string };
