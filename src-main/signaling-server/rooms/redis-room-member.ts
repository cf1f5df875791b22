import type { PeerAddress } from './peer-address';

// A room member as Redis stores it: the peer's whole address, so that whichever server reads the
// room can reach the peer. The scripts treat it as an opaque string.

export function encodeMember(peer: PeerAddress): string {
  return JSON.stringify({ id: peer.id, transport: peer.transport, instance: peer.instance });
}

function decodeMember(member: unknown): PeerAddress {
  const fields: unknown = typeof member === 'string' ? JSON.parse(member) : undefined;
  if (typeof fields === 'object' && fields !== null) {
    const { id, transport, instance } = fields as Record<string, unknown>;
    if (
      typeof id === 'string' &&
      (transport === 'socket.io' || transport === 'ws') &&
      typeof instance === 'string'
    ) {
      return { id, transport, instance };
    }
  }
  throw new Error(`Malformed room member in Redis: ${String(member)}`);
}

/** The members a script answered with; throws on anything else, which only a foreign writer makes. */
export function decodeMembers(members: unknown): PeerAddress[] {
  if (!Array.isArray(members)) throw new Error(`Malformed room in Redis: ${String(members)}`);
  return members.map(decodeMember);
}
