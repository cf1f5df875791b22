import type { ClientRequestArgs } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect } from 'node:tls';
import type { HttpFetch } from '../../src-shared/http/request-json';

/**
 * A SHA-256 certificate fingerprint as hex digits alone, uppercase: "ab:cd…", "AB CD…" and
 * "abcd…" are one fingerprint.
 */
function fingerprintDigits(fingerprint: string): string {
  return fingerprint.replace(/[\s:]/g, '').toUpperCase();
}

/** Whether `fingerprint` reads as a SHA-256 fingerprint at all. */
export function isSha256Fingerprint(fingerprint: string): boolean {
  return /^[0-9A-F]{64}$/.test(fingerprintDigits(fingerprint));
}

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
                get: (name) => {
                  const value = response.headers[name.toLowerCase()];
                  return Array.isArray(value) ? value.join(', ') : (value ?? null);
                },
              },
              json: async () => JSON.parse(text) as unknown,
            });
          });
        },
      );
      sent.once('error', reject);
      sent.end(init.body);
    });
}
