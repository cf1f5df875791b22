import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  MAX_SIGNAL_MESSAGE_BYTES,
  MAX_TRANSPORT_FRAME_BYTES,
  WS_HEARTBEAT_INTERVAL_MS,
} from '../../../src-shared/signaling/limits';
import { SIGNALING_ERROR } from '../../../src-shared/signaling/signaling-errors';
import {
  decodePresenceWsText,
  type PresenceServerMessage,
} from '../../../src-shared/nearby/presence-wire';
import { decodeWsClientMessage } from '../../../src-shared/signaling/ws-codec';
import type { WsServerMessage } from '../../../src-shared/signaling/ws-messages';
import type { PeerEvent, PeerLink } from '../rooms/peer-event';
import type { PresenceLink, PresenceRoster } from '../presence/presence-roster';
import type { PeerSession, SignalingHub } from '../rooms/signaling-hub';
import type { Every } from '../schedule';
import type { ConnectionGate } from './connection-gate';
import { rejectUpgrade } from './reject-upgrade';

// The policy-violation close code: the peer is told why before the connection ends.
const CLOSE_POLICY_VIOLATION = 1008;
const CLOSE_GOING_AWAY = 1001;
// The peer should connect again: the server lost track of its room (Redis lost its data, say).
const CLOSE_TRY_AGAIN_LATER = 1013;

function toWsMessage(event: PeerEvent): WsServerMessage {
  return event.type === 'user-connected' ? { type: 'user-connected', id: event.peerId } : event;
}

function asBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/** The raw WebSocket transport (path /ws) of native peers: one JSON object with a `type` per message. */
export class WsTransport {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_TRANSPORT_FRAME_BYTES,
    perMessageDeflate: false,
  });
  private readonly answeredPing = new WeakSet<WebSocket>();
  private readonly stopHeartbeat: () => void;

  constructor(
    private readonly hub: SignalingHub,
    private readonly gate: ConnectionGate,
    every: Every,
    /** The presence roster, when the server keeps one (docs/protocol.md, "Presence"). */
    private readonly presence?: PresenceRoster,
  ) {
    this.stopHeartbeat = every(WS_HEARTBEAT_INTERVAL_MS, () => this.heartbeat());
  }

  async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (!this.gate.originAllowed(request)) {
      rejectUpgrade(socket, 403, { error: SIGNALING_ERROR.originNotAllowed });
      return;
    }
    // Between the upgrade event and the handover to ws nobody else listens for socket errors.
    const onEarlyError = () => socket.destroy();
    socket.on('error', onEarlyError);
    const admitted = await this.gate.admit(request);
    socket.off('error', onEarlyError);
    this.server.handleUpgrade(request, socket, head, (ws) => {
      if (admitted) this.serve(ws);
      else this.refuse(ws);
    });
  }

  close(): void {
    this.stopHeartbeat();
    for (const ws of this.server.clients) ws.close(CLOSE_GOING_AWAY, 'Server shutting down');
    for (const ws of this.server.clients) ws.terminate();
    this.server.close();
  }

  private serve(ws: WebSocket): void {
    const link: PeerLink = {
      id: randomUUID(),
      transport: 'ws',
      deliver: (event) => this.send(ws, toWsMessage(event)),
      drop: () => ws.close(CLOSE_TRY_AGAIN_LATER, 'Room lost; join again'),
    };
    const session = this.hub.connect(link);
    const listing: PresenceLink = {
      id: link.id,
      tell: (message) => this.send(ws, message),
      fail: (message) => this.send(ws, { type: 'error', message }),
    };
    this.answeredPing.add(ws);
    ws.on('pong', () => this.answeredPing.add(ws));
    ws.on('message', (data) => this.receive(ws, session, listing, asBuffer(data)));
    ws.on('close', () => {
      this.presence?.leave(link.id);
      session.disconnect();
    });
    // ws closes the connection itself after a protocol error (a frame over maxPayload, say).
    ws.on('error', () => undefined);
  }

  private refuse(ws: WebSocket): void {
    this.send(ws, { type: 'error', message: SIGNALING_ERROR.tooManyConnections });
    ws.close(CLOSE_POLICY_VIOLATION, SIGNALING_ERROR.tooManyConnections);
  }

  private receive(ws: WebSocket, session: PeerSession, listing: PresenceLink, data: Buffer): void {
    if (data.length > MAX_SIGNAL_MESSAGE_BYTES) {
      this.send(ws, { type: 'error', message: SIGNALING_ERROR.messageTooLarge });
      return;
    }
    const text = data.toString('utf8');
    // Without a roster, a presence message is one of an unknown type, as on any spec server.
    const request = this.presence && decodePresenceWsText(text);
    if (request !== undefined) {
      if (request.ok) this.presence?.handle(listing, request.message);
      else listing.fail(request.error);
      return;
    }
    const decoded = decodeWsClientMessage(text);
    if (!decoded.ok) {
      this.send(ws, { type: 'error', message: decoded.error });
      return;
    }
    const message = decoded.message;
    switch (message.type) {
      case 'join-room':
        session.join(message.roomId);
        break;
      case 'signal':
        session.signal({ signal: message.signal, roomId: message.roomId });
        break;
      case 'ping':
        this.send(ws, { type: 'pong' });
        break;
    }
  }

  private send(ws: WebSocket, message: WsServerMessage | PresenceServerMessage): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  // A peer that has not answered the previous ping is gone (a sleeping laptop, a dead NAT entry).
  private heartbeat(): void {
    for (const ws of this.server.clients) {
      if (!this.answeredPing.has(ws)) {
        ws.terminate();
        continue;
      }
      this.answeredPing.delete(ws);
      ws.ping();
    }
  }
}
