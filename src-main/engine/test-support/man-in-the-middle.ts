import {
  createServer,
  request as forwardRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import {
  decodeSignal,
  type NegotiationSignal,
} from '../../../src-shared/session/negotiation-signal';
import { WS_PATH } from '../../../src-shared/signaling/endpoints';
import type { SignalPayload } from '../../../src-shared/signaling/signal-payload';
import {
  decodeWsClientMessage,
  decodeWsServerMessage,
} from '../../../src-shared/signaling/ws-codec';
import type { WsClientMessage, WsServerMessage } from '../../../src-shared/signaling/ws-messages';
import { closeHttpServer, listen } from '../../signaling-server';
import { Interception } from './interception';

export {
  fingerprintsIn,
  type Carried,
  type FingerprintView,
  type InterceptedSdp,
  type Interception,
} from './interception';

export interface ManInTheMiddle {
  /** The address to give the real peers as their signaling server. */
  readonly url: string;
  /** Every offer of a real sender that the middle terminated, oldest first. */
  readonly interceptions: readonly Interception[];
  /** Lets go of every connection and socket of the middle; the real server stays up. */
  close(): Promise<void>;
}

/**
 * A malicious signaling server for tests: a proxy on loopback in front of the real server at
 * `serverUrl`, so codes, rooms and roles are the real server's own. The native /ws seats pass
 * through message by message, except on the sender's seat, where every negotiation payload is
 * swapped: the sender's go to the middle's PeerConnection A, and B's go up to the server in their
 * place; what the server relays to the sender (the receiver's) goes to B, and A's come down in
 * its place. Each real peer thus completes DTLS with the middle, whose two channels are piped
 * together. Browser seats (socket.io) are not relayed. With `listGenuineFirst`, the receiver is
 * offered the sender's certificate first and the middle's second (Interception's disguise).
 */
export async function startManInTheMiddle(
  serverUrl: string,
  options: { listGenuineFirst?: boolean } = {},
): Promise<ManInTheMiddle> {
  const interceptions: Interception[] = [];
  const proxy = await startSeatProxy(serverUrl, {
    intercepted: (interception) => interceptions.push(interception),
    listGenuineFirst: options.listGenuineFirst === true,
  });
  return {
    url: proxy.url,
    interceptions,
    async close() {
      for (const interception of interceptions) interception.close();
      await proxy.close();
    },
  };
}

/** A signaling server in front of the real one that only edits what the peers relay. */
export interface RewritingRelay {
  /** The address to give the real peers as their signaling server. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The same proxy in front of the real server at `serverUrl` as the man in the middle's, with no
 * middle: each negotiation payload a native peer sends up on its /ws seat is replaced by
 * `rewrite(payload)`, and everything else passes as it came. Browser seats (socket.io) are not
 * relayed, so a page facing a rewritten description is the native peer's partner.
 */
export function startRewritingRelay(
  serverUrl: string,
  rewrite: (payload: SignalPayload) => SignalPayload,
): Promise<RewritingRelay> {
  return startSeatProxy(serverUrl, { rewrite });
}

/** What a relayed seat does with the negotiation payloads that pass it. */
type SeatPlan =
  | { intercepted(interception: Interception): void; listGenuineFirst: boolean }
  | { rewrite(payload: SignalPayload): SignalPayload };

async function startSeatProxy(serverUrl: string, plan: SeatPlan): Promise<RewritingRelay> {
  const upstream = new URL(serverUrl);
  const seatUrl = new URL(WS_PATH, upstream);
  seatUrl.protocol = 'ws:';
  const sockets = new Set<WebSocket>();
  const seats = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const http = createServer((request, response) => forward(upstream, request, response));
  http.on('upgrade', (request, socket, head) => {
    if (new URL(request.url ?? '/', upstream).pathname !== WS_PATH) {
      socket.destroy();
      return;
    }
    seats.handleUpgrade(request, socket, head, (peer) => {
      const server = new WebSocket(seatUrl, { perMessageDeflate: false });
      for (const seat of [peer, server]) {
        sockets.add(seat);
        seat.once('close', () => sockets.delete(seat));
      }
      new RelayedSeat(peer, server, plan);
    });
  });
  const { url } = await listen(http, 0, '127.0.0.1');
  return {
    url,
    async close() {
      for (const socket of sockets) socket.terminate();
      seats.close();
      await closeHttpServer(http);
    },
  };
}

/** Every HTTP request goes to the real server as it came, and its answer back as it went. */
function forward(upstream: URL, request: IncomingMessage, response: ServerResponse): void {
  const onward = forwardRequest(
    {
      hostname: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: request.headers,
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  onward.on('error', () => response.destroy());
  request.pipe(onward);
}

/**
 * One peer's /ws seat, relayed to the real server: on the sender's seat, the swap, or on every
 * seat, the rewrite of what the peer sends up.
 */
class RelayedSeat {
  readonly #peer: WebSocket;
  readonly #server: WebSocket;
  readonly #plan: SeatPlan;
  /** What the peer said before the seat to the real server was open. */
  readonly #early: { data: string | Buffer; binary: boolean }[] = [];
  #roomId: string | undefined;
  #isSender = false;
  #receiverId = '';
  #current: Interception | undefined;

  constructor(peer: WebSocket, server: WebSocket, plan: SeatPlan) {
    this.#peer = peer;
    this.#server = server;
    this.#plan = plan;
    // Neither end of /ws sends binary frames, but any that comes passes as it is.
    peer.on('message', (data, isBinary) => {
      if (isBinary) this.#up(bytesOf(data), true);
      else if (!this.#fromPeer(data.toString())) this.#up(data.toString());
    });
    server.on('open', () => {
      for (const { data, binary } of this.#early.splice(0)) server.send(data, { binary });
    });
    server.on('message', (data, isBinary) => {
      if (isBinary) this.#down(bytesOf(data), true);
      else if (!this.#fromServer(data.toString())) this.#down(data.toString());
    });
    // Either side leaving ends the other, as the peer's own socket ending would.
    for (const socket of [peer, server]) {
      socket.on('error', () => this.#end());
      socket.on('close', () => this.#end());
    }
  }

  /** Reads what the peer sent; true when the middle took it instead of the server. */
  #fromPeer(text: string): boolean {
    const decoded = decodeWsClientMessage(text);
    if (!decoded.ok) return false;
    const message = decoded.message;
    if (message.type === 'join-room') this.#roomId = message.roomId;
    if (message.type === 'signal' && 'rewrite' in this.#plan) {
      this.#toServer({ ...message, signal: this.#plan.rewrite(message.signal) });
      return true;
    }
    if (message.type !== 'signal' || !this.#isSender) return false;
    this.#fromSender(message.signal);
    return true;
  }

  /** Reads what the server sent; true when the middle took it instead of the peer. */
  #fromServer(text: string): boolean {
    const decoded = decodeWsServerMessage(text);
    if (!decoded.ok) return false;
    const message = decoded.message;
    if (message.type === 'room-joined') this.#isSender = message.role === 'sender';
    if (message.type === 'user-connected') this.#receiverId = message.id;
    if (message.type !== 'signal' || !this.#isSender || 'rewrite' in this.#plan) return false;
    this.#fromReceiver(message.signal);
    return true;
  }

  #fromSender(payload: SignalPayload): void {
    const signal = decodeSignal(payload);
    if (signal?.type === 'offer') {
      const current = this.#current;
      // The same offer twice changes nothing; a newer one replaces the attempt, as in Ferry.
      if (current !== undefined && current.attempt === signal.attempt) return;
      current?.close();
      const plan = this.#plan;
      if (!('intercepted' in plan)) return;
      this.#current = new Interception(
        signal,
        {
          toSender: (relayed) =>
            this.#toPeer({ type: 'signal', signal: relayed, sender: this.#receiverId }),
          toReceiver: (relayed) =>
            this.#toServer({ type: 'signal', signal: relayed, roomId: this.#roomId }),
        },
        plan.listGenuineFirst,
      );
      plan.intercepted(this.#current);
      return;
    }
    const current = this.#matching(signal);
    if (signal?.type === 'candidate') current?.senderCandidate(signal.candidate);
  }

  #fromReceiver(payload: SignalPayload): void {
    const signal = decodeSignal(payload);
    const current = this.#matching(signal);
    if (signal?.type === 'answer') current?.receiverAnswered(signal.sdp);
    else if (signal?.type === 'candidate') current?.receiverCandidate(signal.candidate);
  }

  /** The interception a payload belongs to: a payload without a number, the current one. */
  #matching(signal: NegotiationSignal | undefined): Interception | undefined {
    const current = this.#current;
    if (signal === undefined || current === undefined) return undefined;
    const numbered = signal.attempt !== undefined && current.attempt !== undefined;
    return numbered && signal.attempt !== current.attempt ? undefined : current;
  }

  #toPeer(message: WsServerMessage): void {
    this.#down(JSON.stringify(message));
  }

  #toServer(message: WsClientMessage): void {
    this.#up(JSON.stringify(message));
  }

  #up(data: string | Buffer, binary = false): void {
    if (this.#server.readyState === WebSocket.CONNECTING) this.#early.push({ data, binary });
    else if (this.#server.readyState === WebSocket.OPEN) this.#server.send(data, { binary });
  }

  #down(data: string | Buffer, binary = false): void {
    if (this.#peer.readyState === WebSocket.OPEN) this.#peer.send(data, { binary });
  }

  #end(): void {
    for (const socket of [this.#peer, this.#server]) {
      if (socket.readyState === WebSocket.OPEN) socket.close();
      else if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    }
  }
}

function bytesOf(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
