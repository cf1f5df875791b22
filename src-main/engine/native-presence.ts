import WebSocket from 'ws';
import type { OpenPresence } from '../../src-shared/nearby/nearby-ports';
import { openPresenceSeat, type OpenPresenceSocket } from '../../src-shared/nearby/presence-seat';
import { nodeClock } from './node-clock';
import { connectWs, keepWsAlive } from './ws-socket';

export interface NativePresenceOptions {
  /** The server must present this certificate (a LAN room over HTTPS; PeerOptions). */
  serverCertificate?: string;
}

/** The type of a /ws message, with the message as its payload; undefined for anything else. */
function messageOf(text: string): { name: string; payload: unknown } | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || !('type' in payload)) return undefined;
  return typeof payload.type === 'string' ? { name: payload.type, payload } : undefined;
}

/** The presence socket over /ws: its own connection, kept alive like a room's. */
function wsPresenceSocket(serverUrl: string, options: NativePresenceOptions): OpenPresenceSocket {
  return (report) => {
    const socket = connectWs(serverUrl, options.serverCertificate);
    let stopKeepAlive: (() => void) | undefined;
    socket.on('open', () => {
      stopKeepAlive = keepWsAlive(socket);
      report({ type: 'open' });
    });
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : messageOf(data.toString());
      if (message !== undefined) report({ type: 'message', ...message });
    });
    socket.on('error', () => report({ type: 'closed' }));
    socket.on('close', () => report({ type: 'closed' }));
    return {
      send: (message) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
      },
      close: () => {
        stopKeepAlive?.();
        socket.removeAllListeners();
        // A late socket error must not become an uncaught exception.
        socket.on('error', () => undefined);
        socket.close();
      },
    };
  };
}

/**
 * A native program's OpenPresence (docs/protocol.md, "Presence"): the roster of the server at
 * `serverUrl`, over one /ws connection of its own. The rules are src-shared/nearby/presence-seat.ts.
 */
export function openNativePresence(
  serverUrl: string,
  options: NativePresenceOptions = {},
): OpenPresence {
  const open = wsPresenceSocket(serverUrl, options);
  return (intro, cancelled) => openPresenceSeat({ clock: nodeClock, open }, intro, cancelled);
}
