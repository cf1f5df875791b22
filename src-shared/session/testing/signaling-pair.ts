import type { PeerRole } from '../../signaling/peer-role';
import type { SignalPayload } from '../../signaling/signal-payload';
import type { SignalingEvent, SignalingPort } from '../ports';
import { SignalInbox } from '../signal-inbox';

/** Decides whether a payload from `from` reaches the other seat; tests use it to break routes. */
export type SignalFilter = (payload: SignalPayload, from: PeerRole) => boolean;

export interface SignalingSeat extends SignalingPort {
  readonly closed: boolean;
}

/**
 * Two seats of one room without a server, for tests of the session core: what one seat signals
 * the other receives, in order, on a later turn of the event loop (as a socket would deliver it).
 * `join()` puts the receiver in the room and tells the sender, exactly as the server does.
 */
export function signalingPair(filter: SignalFilter = () => true): {
  sender: SignalingSeat;
  receiver: SignalingSeat;
  join(): void;
} {
  const inboxes = { sender: new SignalInbox(), receiver: new SignalInbox() };
  const closed = { sender: false, receiver: false };
  const other = (role: PeerRole): PeerRole => (role === 'sender' ? 'receiver' : 'sender');
  const post = (to: PeerRole, event: SignalingEvent): void => {
    void Promise.resolve().then(() => {
      if (!closed[to]) inboxes[to].deliver(event);
    });
  };
  const seat = (role: PeerRole): SignalingSeat => ({
    role,
    get closed() {
      return closed[role];
    },
    signal(payload) {
      if (closed[role] || !filter(payload, role)) return;
      post(other(role), { type: 'signal', payload });
    },
    listen: (listener) => inboxes[role].listen(listener),
    close() {
      if (closed[role]) return;
      closed[role] = true;
      inboxes[role].clear();
      post(other(role), { type: 'peer-disconnected' });
    },
  });
  return {
    sender: seat('sender'),
    receiver: seat('receiver'),
    join: () => post('sender', { type: 'user-connected' }),
  };
}
