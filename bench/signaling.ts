// `npm run bench:signaling`: N peers (half event socket, half WebSocket, two per room, every
// room mixed) held by a signaling server in another process, then a steady stream of signals
// relayed between them. Prints JSON: joins/s, relay latency p50/p99, server RSS per connection,
// and the same figures for a bare ws relay under the same load as the same-run baseline.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchOptions, type BenchOptions } from './signaling/bench-options';
import type { Transport } from './signaling/bench-peer';
import { runLoad, type LoadResult } from './signaling/run-load';
import { ServerProcess } from './signaling/server-process';

const FERRY_SERVER = fileURLToPath(
  new URL('../src-main/signaling-server/main.ts', import.meta.url),
);
const BARE_RELAY = fileURLToPath(new URL('./signaling/bare-relay.ts', import.meta.url));
const GOALS = { peers: 10_000, relayP99Ms: 50, rateAtLeast: 2000, rssPerConnectionKB: 30 };
// The sender paces itself on a 5 ms tick, so the rate it achieves ends a hair under its target.
const RATE_TOLERANCE = 0.99;

interface Measured extends LoadResult {
  server: string[];
  rss: { idleMB: number; heldMB: number; perConnectionKB: number } | null;
}

function openFileLimit(): number {
  const limits = readFileSync('/proc/self/limits', 'utf8');
  return Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? Number.POSITIVE_INFINITY);
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function measure(
  options: BenchOptions,
  transports: (room: number) => [Transport, Transport],
  spawnScript: string | undefined,
): Promise<Measured> {
  const server =
    spawnScript === undefined
      ? undefined
      : await ServerProcess.start(spawnScript, {
          // Every bench peer comes from 127.0.0.1.
          MAX_CONNECTIONS_PER_IP: String(options.peers * 10),
        });
  try {
    const servers = server === undefined ? options.servers : [server.url];
    const idle = server?.rssBytes();
    let held: number | undefined;
    const result = await runLoad({
      servers,
      peers: options.peers,
      transports,
      rate: options.rate,
      seconds: options.seconds,
      concurrency: options.concurrency,
      whileHeld: () => {
        held = server?.rssBytes();
      },
    });
    const rss =
      idle === undefined || held === undefined
        ? null
        : {
            idleMB: mib(idle),
            heldMB: mib(held),
            perConnectionKB: Math.round(((held - idle) / options.peers / 1024) * 10) / 10,
          };
    return { server: servers, ...result, rss };
  } finally {
    await server?.stop();
  }
}

const options = benchOptions(process.argv.slice(2));
if (options.peers + 100 > openFileLimit()) {
  throw new Error(
    `${options.peers} peers need more open files than ulimit -n allows (${openFileLimit()}); raise it`,
  );
}
const mixed = (room: number): [Transport, Transport] =>
  room % 2 === 0 ? ['socket.io', 'ws'] : ['ws', 'socket.io'];

const baseline =
  options.baseline && options.servers.length === 0
    ? await measure(options, () => ['ws', 'ws'], BARE_RELAY)
    : null;
const ferry = await measure(
  options,
  mixed,
  options.servers.length === 0 ? FERRY_SERVER : undefined,
);

const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? null : Math.round((a / b) * 100) / 100;

console.log(
  JSON.stringify(
    {
      bench: 'signaling',
      peers: options.peers,
      rooms: options.peers / 2,
      socketIoTransport: 'websocket',
      ferry,
      baseline:
        baseline === null ? null : { name: 'bare ws relay, WebSocket peers only', ...baseline },
      ratioToBaseline:
        baseline === null
          ? null
          : {
              joinsPerSecond: ratio(ferry.joinsPerSecond, baseline.joinsPerSecond),
              relayP50: ratio(ferry.relay.p50Ms, baseline.relay.p50Ms),
              relayP99: ratio(ferry.relay.p99Ms, baseline.relay.p99Ms),
              rssPerConnection: ratio(ferry.rss?.perConnectionKB, baseline.rss?.perConnectionKB),
            },
      goals: {
        ...GOALS,
        met: {
          peersHeld: ferry.held >= GOALS.peers,
          relayP99:
            ferry.relay.p99Ms < GOALS.relayP99Ms &&
            ferry.relay.achievedPerSecond >= GOALS.rateAtLeast * RATE_TOLERANCE,
          rssPerConnection:
            ferry.rss === null ? null : ferry.rss.perConnectionKB < GOALS.rssPerConnectionKB,
        },
      },
    },
    null,
    2,
  ),
);
