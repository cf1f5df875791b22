import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as TlsServer } from 'node:tls';

export interface ListeningAddress {
  port: number;
  /** An address a client on this machine can reach: loopback when the server binds every interface. */
  url: string;
}

function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export function listen(server: Server, port: number, host: string): Promise<ListeningAddress> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const bound = (server.address() as AddressInfo).port;
      const scheme = server instanceof TlsServer ? 'https' : 'http';
      resolve({ port: bound, url: `${scheme}://${reachableHost(host)}:${bound}` });
    });
  });
}

/** Stops accepting, drops idle keep-alive connections and waits for the rest to end. */
export function closeHttpServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
