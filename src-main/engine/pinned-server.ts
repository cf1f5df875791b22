import type { ClientRequestArgs } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect } from 'node:tls';
import type { HttpFetch } from '../../src-shared/http/request-json';
import { fingerprintDigits } from '../../src-shared/verify/server-fingerprint';

type Connect = (
  options: ClientRequestArgs,
  done: (error: Error | null, socket: Duplex) => void,
) => undefined;

/**
 * Opens the TLS connections of requests to a server whose certificate no authority signed (a LAN
 * room's own, docs/architecture.md "The LAN room over HTTPS"): exactly the certificate with this
 * SHA-256 fingerprint is accepted, and the request is handed the socket only once it was checked,
 * so not a byte goes to any other server.
 */
export function pinnedConnection(fingerprint: string): Connect {
  const expected = fingerprintDigits(fingerprint);
  return (options, done) => {
    const host = options.host ?? options.hostname ?? 'localhost';
    const socket = connect({
      host,
      port: Number(options.port),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      // The chain is not what is checked here: the fingerprint below is.
      rejectUnauthorized: false,
    });
    const fail = (error: Error): void => {
      socket.destroy();
      done(error, socket);
    };
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      socket.off('error', fail);
      const presented = socket.getPeerCertificate().fingerprint256;
      if (presented !== undefined && fingerprintDigits(presented) === expected) {
        done(null, socket);
        return;
      }
      fail(
        new Error(
          `the server's certificate is ${presented ?? 'missing'}, not the expected ${fingerprint}`,
        ),
      );
    });
    return undefined;
  };
}

/** `fetch` for the signaling requests, over connections pinned to `fingerprint`. */
export function pinnedFetch(fingerprint: string): HttpFetch {
  const createConnection = pinnedConnection(fingerprint);
  return (url, init) =>
    new Promise((resolve, reject) => {
      const sent = request(
        url,
        { method: init.method, headers: init.headers, signal: init.signal, createConnection },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.once('error', reject);
          response.once('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: response.statusCode ?? 0,
              headers: {
                get: (name: string) => {
                  const value = response.headers[name.toLowerCase()];
                  return Array.isArray(value) ? value.join(', ') : (value ?? null);
                },
              },
              json: async (): Promise<unknown> => JSON.parse(text),
            });
          });
        },
      );
      sent.once('error', reject);
      sent.end(init.body);
    });
}
