// Signaling spec, "WebSocket transport (command-line client)": path /ws, one JSON object with a
// `type` per message. Every message from the server is checked against the spec's table.
import WebSocket from 'ws';
import { failure, violation } from './failure';
import { ROLE_WAIT_MS } from './limits';
import type { SeatEvent, SeatFactory } from './room-seat';

export const createWsSeat: SeatFactory = async (serverUrl, listener, tripwire) => {
  const url = new URL('/ws', serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(failure(`${url.href} did not open within ${ROLE_WAIT_MS} ms`)),
      ROLE_WAIT_MS,
    );
    socket.once('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(failure(`${url.href} failed: ${error.message}`));
    });
  });
  const deliver = tripwire.guard(listener);
  socket.on(
    'message',
    tripwire.guard((data: WebSocket.RawData, isBinary: boolean) => {
      if (isBinary) throw violation('the server sent a binary WebSocket message');
      deliver(serverMessage(String(data)));
    }),
  );
  socket.on('close', (code: number) => deliver({ type: 'closed', why: `WebSocket close ${code}` }));
  // An error is followed by a close, which is what this peer acts on.
  socket.on('error', () => undefined);
  const send = (message: object): void => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  return {
    join: (roomId) => send({ type: 'join-room', roomId }),
    signal: (signal, roomId) => send({ type: 'signal', signal, roomId }),
    leave: () => socket.close(),
  };
};

/** Signaling spec, "WebSocket: server to client". */
function serverMessage(raw: string): SeatEvent {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    throw violation(`the server sent a WebSocket message that is not JSON: ${raw}`);
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw violation(`the server sent a WebSocket message that is no object: ${raw}`);
  }
  const fields = message as Record<string, unknown>;
  switch (fields.type) {
    case 'room-joined':
      if (fields.role !== 'sender' && fields.role !== 'receiver') {
        throw violation(`room-joined without a role: ${raw}`);
      }
      return { type: 'room-joined', role: fields.role };
    case 'user-connected':
      if (typeof fields.id !== 'string') throw violation(`user-connected without an id: ${raw}`);
      return { type: 'user-connected' };
    case 'signal':
      if (fields.signal === undefined || typeof fields.sender !== 'string') {
        throw violation(`signal without its signal and sender: ${raw}`);
      }
      return { type: 'signal', signal: fields.signal };
    case 'peer-disconnected':
    case 'room-full':
    case 'pong':
      return { type: fields.type };
    case 'error':
      if (typeof fields.message !== 'string') throw violation(`error without a message: ${raw}`);
      return { type: 'error', message: fields.message };
    default:
      throw violation(`the server sent a WebSocket message of unknown type: ${raw}`);
  }
}
