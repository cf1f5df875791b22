import { SocketIoPeer, WsPeer } from './peers';

// One vocabulary for tests that run the same story over either transport.

export type Transport = 'socket.io' | 'ws';
export type AnyPeer = SocketIoPeer | WsPeer;

export const connect = (transport: Transport, url: string): Promise<AnyPeer> =>
  transport === 'socket.io' ? SocketIoPeer.connect(url) : WsPeer.connect(url);

/** The transport-neutral form of what a peer received: `type` plus the spec's fields. */
export async function nextEvent(peer: AnyPeer): Promise<Record<string, unknown>> {
  if (peer instanceof WsPeer) return { ...(await peer.next()) };
  const { event, payload } = await peer.next();
  if (event === 'user-connected') return { type: event, id: payload };
  return { type: event, ...(payload as object) };
}

export async function join(peer: AnyPeer, roomId: string): Promise<Record<string, unknown>> {
  if (peer instanceof WsPeer) peer.send({ type: 'join-room', roomId });
  else peer.emitRaw('join-room', roomId);
  return nextEvent(peer);
}

export function signal(peer: AnyPeer, payload: unknown, roomId: string): void {
  if (peer instanceof WsPeer) peer.send({ type: 'signal', signal: payload, roomId });
  else peer.emitRaw('signal', { signal: payload, roomId });
}

/** The id the other peer knows this one by, from the user-connected it caused. */
export function peerId(peer: AnyPeer, userConnected: Record<string, unknown>): string {
  return peer instanceof SocketIoPeer ? peer.id : String(userConnected.id);
}

/** Every ordered pair of transports: sender first, receiver second. */
export const TRANSPORT_PAIRS: [Transport, Transport][] = [
  ['socket.io', 'socket.io'],
  ['ws', 'ws'],
  ['socket.io', 'ws'],
  ['ws', 'socket.io'],
];
