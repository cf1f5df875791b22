// The baseline: the least a WebSocket relay can do for the same messages (rooms of two, JSON
// join-room and signal), with no limits, validation or second transport. Run as its own process.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const rooms = new Map<string, WebSocket[]>();
const roomOf = new Map<WebSocket, string>();
const server = createServer();
const wss = new WebSocketServer({ server, path: '/ws', perMessageDeflate: false });

wss.on('connection', (ws) => {
  const id = Math.random().toString(36).slice(2);
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; roomId?: string; signal?: unknown };
    if (message.type === 'join-room' && message.roomId !== undefined) {
      const peers = rooms.get(message.roomId) ?? [];
      peers.push(ws);
      rooms.set(message.roomId, peers);
      roomOf.set(ws, message.roomId);
      ws.send(
        JSON.stringify({ type: 'room-joined', role: peers.length === 1 ? 'sender' : 'receiver' }),
      );
      if (peers.length === 2) peers[0].send(JSON.stringify({ type: 'user-connected', id }));
    } else if (message.type === 'signal') {
      const text = JSON.stringify({ type: 'signal', signal: message.signal, sender: id });
      for (const peer of rooms.get(roomOf.get(ws) ?? '') ?? []) if (peer !== ws) peer.send(text);
    }
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`Bare relay listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
