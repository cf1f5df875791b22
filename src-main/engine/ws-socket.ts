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
 * A native peer's socket for the room join (src-shared/session/room-join.ts): the /ws transport
 * over `ws`, which sends `join-room` once open and keeps the socket alive with the transport's
 * `ping`. It only translates; what each server message means is the join's. With
 * `serverCertificate`, the server must present that certificate (PeerOptions).
 */
export function openWsSocket(serverUrl: string, serverCertificate?: string): OpenSeatSocket {
  return (roomId, report) => {
    const url = signalingSocketUrl(serverUrl);
    const socket = new WebSocket(url, {
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
    let keepAlive: NodeJS.Timeout | undefined;
    const send = (message: WsClientMessage): void => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    socket.on('open', () => {
      send({ type: 'join-room', roomId });
      keepAlive = setInterval(() => send({ type: 'ping' }), WS_HEARTBEAT_INTERVAL_MS);
      keepAlive.unref();
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
        clearInterval(keepAlive);
        socket.removeAllListeners();
        // A late socket error must not become an uncaught exception.
        socket.on('error', () => undefined);
        socket.close();
      },
    };
  };
}
