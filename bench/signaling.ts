// `npm run bench:signaling`: N peers (half event socket, half WebSocket, two per room, every
// room mixed) held by signaling servers in other processes, then a steady stream of signals
// relayed between them. Prints JSON: joins/s, relay latency p50/p99, server RSS per connection —
// for one server, for a two-server cluster sharing its own Redis (each room's peers split across
// the two), and for a bare ws relay under the same load as the same-run baseline.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RedisProcess } from '../src-main/signaling-server/test-support/redis-process';
import { SIGNALING_SERVER_MAIN } from '../src-main/signaling-server/test-support/server-process';
import { benchOptions, type BenchOptions } from './signaling/bench-options';
import type { Transport } from './signaling/bench-peer';
import { runLoad, type LoadResult } from './signaling/run-load';
import { externalFleet, processFleet, type ServerFleet } from './signaling/server-fleet';

const BARE_RELAY = fileURLToPath(new URL('./signaling/bare-relay.ts', import.meta.url));
const GOALS = { peers: 10_000, relayP99Ms: 50, rateAtLeast: 2000, rssPerConnectionKB: 30 };
// The sender paces itself on a 5 ms tick, so the rate it achieves ends a hair under its target.
const RATE_TOLERANCE = 0.99;
const CLUSTER_SIZE = 2;

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
  start: () => Promise<ServerFleet>,
): Promise<Measured> {
  const fleet = await start();
  try {
    const idle = fleet.rssBytes();
    let held: number | undefined;
    const result = await runLoad({
      servers: fleet.urls,
      peers: options.peers,
      transports,
      rate: options.rate,
      seconds: options.seconds,
      concurrency: options.concurrency,
      whileHeld: () => {
        held = fleet.rssBytes();
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
    return { server: fleet.urls, ...result, rss };
  } finally {
    await fleet.stop();
  }
}

/** Two servers sharing a Redis of their own, which lives as long as the measurement. */
async function measureCluster(
  options: BenchOptions,
  transports: (room: number) => [Transport, Transport],
  env: Record<string, string>,
): Promise<Measured & { instances: number }> {
  const redis = await RedisProcess.start();
  try {
    const start = () =>
      processFleet(SIGNALING_SERVER_MAIN, CLUSTER_SIZE, { ...env, REDIS_URL: redis.url });
    return { instances: CLUSTER_SIZE, ...(await measure(options, transports, start)) };
  } finally {
    await redis.stop();
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
// Every bench peer comes from 127.0.0.1, and in a cluster the limit is one for all servers.
const serverEnv = { MAX_CONNECTIONS_PER_IP: String(options.peers * 10) };
const ownServers = options.servers.length === 0;

const baseline =
  options.baseline && ownServers
    ? await measure(
        options,
        () => ['ws', 'ws'],
        () => processFleet(BARE_RELAY, 1, {}),
      )
    : null;
const ferry = await measure(options, mixed, () =>
  ownServers
    ? processFleet(SIGNALING_SERVER_MAIN, 1, serverEnv)
    : Promise.resolve(externalFleet(options.servers)),
);
const cluster = ownServers ? await measureCluster(options, mixed, serverEnv) : null;

const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? null : Math.round((a / b) * 100) / 100;
const ratios = (a: Measured, b: Measured) => ({
  joinsPerSecond: ratio(a.joinsPerSecond, b.joinsPerSecond),
  relayP50: ratio(a.relay.p50Ms, b.relay.p50Ms),
  relayP99: ratio(a.relay.p99Ms, b.relay.p99Ms),
  rssPerConnection: ratio(a.rss?.perConnectionKB, b.rss?.perConnectionKB),
});

console.log(
  JSON.stringify(
    {
      bench: 'signaling',
      peers: options.peers,
      rooms: options.peers / 2,
      socketIoTransport: 'websocket',
      ferry,
      cluster:
        cluster === null
          ? null
          : { name: `${CLUSTER_SIZE} servers sharing one Redis, each room split`, ...cluster },
      baseline:
        baseline === null ? null : { name: 'bare ws relay, WebSocket peers only', ...baseline },
      ratioToBaseline: baseline === null ? null : ratios(ferry, baseline),
      clusterToSingle: cluster === null ? null : ratios(cluster, ferry),
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
