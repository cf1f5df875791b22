import type { OpenPresence } from '../../../src-shared/nearby/nearby-ports';
import {
  openPresenceSeat,
  type OpenPresenceSocket,
} from '../../../src-shared/nearby/presence-seat';
import { browserClock } from './browser-clock';
import { connectEventSocket } from './signaling-socket';

const SERVER_EVENTS = ['presence', 'presence-invite', 'error'] as const;

/** The presence socket over the event socket: its own connection, apart from any room's. */
function eventPresenceSocket(signalingAddress: string): OpenPresenceSocket {
  return (report) => {
    const socket = connectEventSocket(signalingAddress);
    socket.once('connect', () => report({ type: 'open' }));
    socket.once('connect_error', () => report({ type: 'closed' }));
    for (const name of SERVER_EVENTS) {
      socket.on(name, (payload: unknown) => report({ type: 'message', name, payload }));
    }
    socket.on('disconnect', () => report({ type: 'closed' }));
    return {
      send: (message) => {
        switch (message.type) {
          case 'presence-join':
            socket.emit(message.type, { name: message.name, kind: message.kind });
            break;
          case 'presence-invite':
            socket.emit(message.type, { to: message.to, roomId: message.roomId });
            break;
          case 'presence-leave':
            socket.emit(message.type);
            break;
        }
      },
      close: () => {
        socket.removeAllListeners();
        socket.close();
      },
    };
  };
}

/**
 * A page's OpenPresence (docs/protocol.md, "Presence"): the roster of the signaling server at
 * `signalingAddress` (findSignalingAddress), over one event socket of its own. The rules are
 * src-shared/nearby/presence-seat.ts.
 */
export function openBrowserPresence(signalingAddress: string): OpenPresence {
  const open = eventPresenceSocket(signalingAddress);
  return (intro, cancelled) => openPresenceSeat({ clock: browserClock, open }, intro, cancelled);
}
