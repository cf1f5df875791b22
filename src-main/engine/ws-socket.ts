import WebSocket from 'ws';
import {
  WS_HEARTBEAT_INTERVAL_MS,
  SOCKET_CONNECT_TIMEOUT_MS,
} from '../../src-shared/signaling/limits';
import type { WsClientMessage } from '../../src-shared/signaling/ws-messages';
import { WS_PATH } from '../../src-shared/signaling/endpoints';
import type { OpenSeatSocket } from '../../src-shared/session/room-join';
import { seatEventOfWsMessage } from '../../src-shared/session/seat-events';
import { pinnedConnection } from './pinned-server';

/** The address of the /ws transport for a server's HTTP base address. */
function signalingSocketUrl(serverUrl: string): string {
  const url = new URL(WS_PATH, serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * A native program's connection to a server's /ws transport. With `serverCertificate`, the server
 * must present that certificate (PeerOptions).
 */
export function connectWs(serverUrl: string, serverCertificate?: string): WebSocket {
  return new WebSocket(signalingSocketUrl(serverUrl), {
    handshakeTimeout: SOCKET_CONNECT_TIMEOUT_MS,
    perMessageDeflate: false,
    // ws hands this to https.request, which also takes a socket passed to its callback later;
    // ws's types only know the synchronous net.createConnection.
    ...(serverCertificate === undefined
      ? {}
      : {
          createConnection: pinnedConnection(
            serverCertificate,
          ) as unknown as WebSocket.ClientOptions['createConnection'],
        }),
  });
}

/**
 * Sends the transport's `ping` every WS_HEARTBEAT_INTERVAL_MS while `socket` is open, so that
 * no proxy or NAT on the way drops it as idle; returns the stop.
 */
export function keepWsAlive(socket: WebSocket): () => void {
  const ping: WsClientMessage = { type: 'ping' };
  const timer = setInterval(() => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(ping));
  }, WS_HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A native peer's socket for the room join (src-shared/session/room-join.ts): the /ws transport
 * over `ws`, which sends `join-room` once open and keeps the socket alive with the transport's
 * `ping`. It only translates; what each server message means is the join's. With
 * `serverCertificate`, the server must present that certificate (PeerOptions).
 */
export function openWsSocket(serverUrl: string, serverCertificate?: string): OpenSeatSocket {
  return (roomId, report) => {
    const url = signalingSocketUrl(serverUrl);
    const socket = connectWs(serverUrl, serverCertificate);
    let stopKeepAlive: (() => void) | undefined;
    const send = (message: WsClientMessage): void => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    socket.on('open', () => {
      send({ type: 'join-room', roomId });
      stopKeepAlive = keepWsAlive(socket);
      report({ type: 'joining' });
    });
    socket.on('message', (data, isBinary) => {
      const event = isBinary ? undefined : seatEventOfWsMessage(data.toString());
      if (event !== undefined) report(event);
    });
    socket.on('error', (error) => report({ type: 'closed', reason: `${url}: ${error.message}` }));
    socket.on('close', () => report({ type: 'closed' }));
    return {
      signal: (payload) => send({ type: 'signal', signal: payload, roomId }),
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
