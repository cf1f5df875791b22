import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import type { Duplex } from 'node:stream';
import { HTTP_ERROR } from '../../src-shared/signaling/http-api';
import { rejectUpgrade } from '../signaling-server';

const MISDIRECTED = 421;

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;
type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * The Host header values that name `address` and `port`, lowercase: `192.168.1.20:3001`,
 * `[fd00::5]:3001`, and the bare address too on port 80, where browsers leave the port out.
 */
export function ownHostNames(address: string, port: number): string[] {
  const host = isIPv6(address) ? `[${address.toLowerCase()}]` : address;
  return port === 80 ? [`${host}:${port}`, host] : [`${host}:${port}`];
}

/**
 * Makes `server` answer only requests and upgrades whose Host header names the address and port
 * it listens on, and refuse every other with 421 and a JSON error. A page on any other name that
 * a rebinding DNS server pointed at this address is another origin to the browser, which would
 * otherwise let it read this server's answers. Call it once every request and upgrade listener
 * is attached (the socket transports' included), before the server listens.
 */
export function ownHostOnly(server: Server): void {
  const accepts = (request: IncomingMessage): boolean => {
    const listening = server.address();
    const host = request.headers.host?.toLowerCase();
    if (listening === null || typeof listening === 'string' || host === undefined) return false;
    return ownHostNames(listening.address, listening.port).includes(host);
  };
  const requestListeners = server.listeners('request') as RequestListener[];
  const upgradeListeners = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('request');
  server.removeAllListeners('upgrade');

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (accepts(request)) {
      for (const listener of requestListeners) listener.call(server, request, response);
      return;
    }
    const text = JSON.stringify({ error: HTTP_ERROR.misdirected });
    response.writeHead(MISDIRECTED, {
      Connection: 'close',
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
    });
    response.end(text);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (accepts(request)) {
      for (const listener of upgradeListeners) listener.call(server, request, socket, head);
      return;
    }
    rejectUpgrade(socket, MISDIRECTED, { error: HTTP_ERROR.misdirected });
  });
}
