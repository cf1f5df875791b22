import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** Answers an upgrade request with a plain HTTP error and a JSON body, then closes the socket. */
export function rejectUpgrade(socket: Duplex, status: number, body: { error: string }): void {
  const text = JSON.stringify(body);
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}
