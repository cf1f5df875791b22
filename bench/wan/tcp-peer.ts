// One end of the kernel-TCP cell of `npm run bench:wan`, run inside a namespace with
// `ip netns exec`:
//   tcp-peer.ts receive <address> <port> <byte budget> <seconds>
//     listens, prints "listening", counts what one connection delivers until the budget is in
//     or the time is up (then resets the connection), and prints one JSON line of figures.
//   tcp-peer.ts send <address> <port>
//     connects and writes until the receiver ends the connection.
// The congestion controller is the sender namespace's `net.ipv4.tcp_congestion_control`.
import { createServer, connect, type Socket } from 'node:net';

const WRITE_CHUNK_BYTES = 256 * 1024;
const MS_PER_S = 1000;
const MIB = 1024 * 1024;

const [role, address, portText, budgetText, secondsText] = process.argv.slice(2);
const port = Number(portText);

function goodputMiBps(bytes: number, ms: number): number {
  return ms > 0 ? Math.round((bytes / MIB / (ms / MS_PER_S)) * 100) / 100 : 0;
}

if (role === 'receive') {
  const budget = Number(budgetText);
  const limitMs = Number(secondsText) * MS_PER_S;
  const server = createServer((socket: Socket) => {
    server.close();
    const start = performance.now();
    let received = 0;
    // Bytes and time at half the window, for a figure past slow start.
    let halfBytes: number | undefined;
    let halfMs: number | undefined;
    let done = false;
    const finish = (reason: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(halfTimer);
      const elapsedMs = performance.now() - start;
      socket.resetAndDestroy();
      const secondHalf =
        halfBytes !== undefined && halfMs !== undefined
          ? goodputMiBps(received - halfBytes, elapsedMs - halfMs)
          : undefined;
      console.log(
        JSON.stringify({
          type: 'tcp',
          reason,
          bytes: received,
          ms: Math.round(elapsedMs),
          MiBps: goodputMiBps(received, elapsedMs),
          secondHalfMiBps: secondHalf,
        }),
      );
    };
    const timer = setTimeout(() => finish('time'), limitMs);
    const halfTimer = setTimeout(() => {
      halfBytes = received;
      halfMs = performance.now() - start;
    }, limitMs / 2);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received >= budget) finish('budget');
    });
    socket.on('error', () => finish('error'));
    socket.on('end', () => finish('end'));
  });
  server.listen(port, address, () => console.log('listening'));
} else if (role === 'send') {
  const chunk = Buffer.alloc(WRITE_CHUNK_BYTES, 0x5a);
  const socket = connect({ host: address, port }, () => {
    console.log('connected');
    const pump = () => {
      while (socket.write(chunk));
    };
    socket.on('drain', pump);
    pump();
  });
  // The receiver resets the connection when it has measured enough: that is the normal end.
  socket.on('error', () => process.exit(0));
  socket.on('close', () => process.exit(0));
} else {
  console.error(
    'usage: tcp-peer.ts receive <address> <port> <budget> <seconds> | send <address> <port>',
  );
  process.exit(2);
}
