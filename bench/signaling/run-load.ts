import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { connectPeer, type BenchPeer, type Transport } from './bench-peer';
import { summarizeLatencies, type LatencySummary } from './latency-summary';

export interface LoadPlan {
  /** Server URLs; the two peers of room r go to servers r and r+1 (mod count), as a balancer might. */
  servers: string[];
  peers: number;
  /** The sender's and the receiver's transport in room `room`. */
  transports: (room: number) => [Transport, Transport];
  rate: number;
  seconds: number;
  concurrency: number;
  /** Called while every peer is connected and in its room, before the relay phase. */
  whileHeld: () => void;
}

export interface LoadResult {
  connectsPerSecond: number;
  joinsPerSecond: number;
  /** Peers still connected after the relay phase. */
  held: number;
  relay: LatencySummary & {
    targetPerSecond: number;
    achievedPerSecond: number;
    sent: number;
    lost: number;
  };
}

interface Room {
  sender: BenchPeer;
  receiver: BenchPeer;
}

// A realistic trickle-ICE candidate: most signals are these, a few hundred bytes each.
const CANDIDATE =
  'candidate:842163049 1 udp 1677729535 203.0.113.7 46154 typ srflx raddr 192.168.1.20 rport 46154 generation 0 ufrag sK8m network-cost 999';
const DRAIN_TIMEOUT_MS = 5000;
const TICK_MS = 5;

async function inPool<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

function perSecond(count: number, startedAt: number): number {
  return Math.round(count / ((performance.now() - startedAt) / 1000));
}

/** Sends `rate` signals per second for `seconds` from random peers; measures relay latency. */
async function relay(rooms: Room[], rate: number, seconds: number) {
  const latencies: number[] = [];
  let sent = 0;
  let received = 0;
  let drained = () => {};
  for (const { sender, receiver } of rooms) {
    for (const peer of [sender, receiver]) {
      peer.onSignal = (payload) => {
        latencies.push(performance.now() - (payload as { t: number }).t);
        received += 1;
        if (received === sent) drained();
      };
    }
  }
  const startedAt = performance.now();
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - startedAt;
      const due = Math.min(Math.floor((rate * elapsed) / 1000), rate * seconds);
      while (sent < due) {
        const room = rooms[Math.floor(Math.random() * rooms.length)];
        const from = sent % 2 === 0 ? room.sender : room.receiver;
        sent += 1;
        from.signal({ t: performance.now(), candidate: CANDIDATE });
      }
      if (sent >= rate * seconds) {
        clearInterval(timer);
        done();
      }
    }, TICK_MS);
  });
  const sendSeconds = (performance.now() - startedAt) / 1000;
  if (received < sent) {
    await new Promise<void>((done) => {
      drained = done;
      setTimeout(done, DRAIN_TIMEOUT_MS);
    });
  }
  return {
    ...summarizeLatencies(latencies),
    targetPerSecond: rate,
    achievedPerSecond: Math.round(sent / sendSeconds),
    sent,
    lost: sent - received,
  };
}

export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const roomCount = plan.peers / 2;
  const server = (index: number) => plan.servers[index % plan.servers.length];

  let startedAt = performance.now();
  const pairs = await inPool(roomCount, plan.concurrency / 2, async (room) => {
    const [senderTransport, receiverTransport] = plan.transports(room);
    return Promise.all([
      connectPeer(senderTransport, server(room)),
      connectPeer(receiverTransport, server(room + 1)),
    ]);
  });
  const connectsPerSecond = perSecond(plan.peers, startedAt);
  const rooms: Room[] = pairs.map(([sender, receiver]) => ({ sender, receiver }));

  startedAt = performance.now();
  await inPool(roomCount, plan.concurrency / 2, async (index) => {
    const { sender, receiver } = rooms[index];
    const roomId = randomUUID();
    if ((await sender.join(roomId)) !== 'sender') throw new Error('The first joiner was no sender');
    if ((await receiver.join(roomId)) !== 'receiver') {
      throw new Error(
        'The second joiner was no receiver: with several --servers, each room spans two of them, which needs servers sharing one Redis (REDIS_URL)',
      );
    }
    await sender.peerJoined;
  });
  const joinsPerSecond = perSecond(plan.peers, startedAt);
  plan.whileHeld();

  // Warm-up, so that the measurement sees optimized code on both ends.
  await relay(rooms, Math.ceil(plan.rate / 2), Math.min(plan.seconds, 3));
  const relayed = await relay(rooms, plan.rate, plan.seconds);
  const held = rooms.reduce(
    (count, room) =>
      count + (room.sender.connected() ? 1 : 0) + (room.receiver.connected() ? 1 : 0),
    0,
  );
  for (const room of rooms) {
    room.sender.close();
    room.receiver.close();
  }
  return { connectsPerSecond, joinsPerSecond, held, relay: relayed };
}
