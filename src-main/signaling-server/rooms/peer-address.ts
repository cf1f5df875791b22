/** The socket transport a peer speaks: the event socket of browsers or the WebSocket of native peers. */
export type PeerTransport = 'socket.io' | 'ws';

/** Where a peer is connected: enough for any server of a cluster to reach it. */
export interface PeerAddress {
  readonly id: string;
  readonly transport: PeerTransport;
  /** The server instance holding the peer's connection. */
  readonly instance: string;
}
