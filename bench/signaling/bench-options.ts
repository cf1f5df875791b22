import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Peers held at once: half on the event socket, half on the WebSocket, two per room. */
  peers: number;
  /** Signals relayed per second during the measurement. */
  rate: number;
  /** Seconds of measurement, after as long again of warm-up at half that. */
  seconds: number;
  /**
   * Servers to drive, each room's two peers on neighbouring ones; empty means servers this bench
   * starts itself: one alone, then a two-server cluster with its own Redis.
   */
  servers: string[];
  /** Also run the same load against a bare ws relay, the same-run baseline. */
  baseline: boolean;
  /** Connections opening at once. */
  concurrency: number;
}

const USAGE = `npm run bench:signaling -- [--peers 10000] [--rate 2000] [--seconds 10]
  [--servers http://a:3001,http://b:3001] [--no-baseline] [--concurrency 200]`;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new Error(`--${name} must be a positive integer\n${USAGE}`);
  return number;
}

export function benchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      peers: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      servers: { type: 'string' },
      'no-baseline': { type: 'boolean' },
      concurrency: { type: 'string' },
    },
  });
  const peers = positive('peers', values.peers, 10_000);
  if (peers % 2 !== 0) throw new Error(`--peers must be even: two peers per room\n${USAGE}`);
  return {
    peers,
    rate: positive('rate', values.rate, 2000),
    seconds: positive('seconds', values.seconds, 10),
    servers:
      values.servers
        ?.split(',')
        .map((url) => url.trim())
        .filter(Boolean) ?? [],
    baseline: !values['no-baseline'],
    concurrency: positive('concurrency', values.concurrency, 200),
  };
}
