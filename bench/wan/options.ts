// The command line of `npm run bench:wan` (bench/wan/README.md lists every flag).
import { parseArgs } from 'node:util';
import { parseSctpSettings } from '../transfer/sctp-settings';
import { parseSize } from '../transfer/parse-size';

/** The matrix; `--quick` keeps its corners. */
const RTTS_MS = [0, 20, 50, 100] as const;
const LOSSES_PCT = [0, 0.5] as const;
const QUICK_RTTS_MS = [0, 50] as const;
/**
 * Per cell the receiver stops at whichever comes first. 4 s keeps the default run (8 cells × 3
 * reps × 4 measurements, plus the line check and the browser cells) under 15 minutes.
 */
const DEFAULT_BUDGET = '512MiB';
const DEFAULT_CELL_SECONDS = 4;
/** Median of three: one disturbed run on a shared machine does not move the figure. */
const DEFAULT_REPS = 3;
const MIB = 1024 * 1024;

export const MEASUREMENTS = ['tcp', 'bare', 'ferry', 'defaults', 'browser'] as const;
export type Measurement = (typeof MEASUREMENTS)[number];

export interface WanOptions {
  budget: number;
  cellSeconds: number;
  reps: number;
  rateBytesPerS: number;
  rtts: readonly number[];
  losses: readonly number[];
  only: ReadonlySet<Measurement>;
  /** Passed to the bare and Ferry peers as given (already checked); undefined leaves theirs. */
  sctp?: string;
  lanes?: number;
  mtu?: number;
  /** PeerConnections the bare column stripes over (1 when undefined): the stack's own ceiling. */
  bareConnections?: number;
  /** The line's MTU for the matrix (LINE_MTU when undefined): a path that drops larger packets. */
  lineMtu?: number;
}

function numberList(text: string, flag: string): number[] {
  const numbers = text.split(',').map((part) => Number(part.trim()));
  if (numbers.some((value) => !Number.isFinite(value) || value < 0)) {
    throw new Error(`${flag} takes numbers ≥ 0 separated by commas, not "${text}"`);
  }
  return numbers;
}

function measurements(text: string): Set<Measurement> {
  const names = text.split(',').map((part) => part.trim());
  const unknown = names.filter((name) => !(MEASUREMENTS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`--only: unknown ${unknown.join(', ')} (known: ${MEASUREMENTS.join(', ')})`);
  }
  return new Set(names as Measurement[]);
}

function positiveWhole(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${flag} takes a whole number ≥ 1, not "${text}"`);
  }
  return value;
}

export function parseWanOptions(args: string[]): WanOptions {
  const { values } = parseArgs({
    args,
    options: {
      quick: { type: 'boolean', default: false },
      budget: { type: 'string', default: DEFAULT_BUDGET },
      seconds: { type: 'string', default: String(DEFAULT_CELL_SECONDS) },
      reps: { type: 'string', default: String(DEFAULT_REPS) },
      'rate-mibps': { type: 'string', default: '0' },
      rtts: { type: 'string' },
      losses: { type: 'string' },
      only: { type: 'string', default: MEASUREMENTS.join(',') },
      sctp: { type: 'string' },
      lanes: { type: 'string' },
      mtu: { type: 'string' },
      'bare-connections': { type: 'string' },
      'line-mtu': { type: 'string' },
    },
  });
  if (values.sctp !== undefined) parseSctpSettings(values.sctp);
  const cellSeconds = Number(values.seconds);
  if (!(cellSeconds > 0)) throw new Error(`--seconds must be > 0, not "${values.seconds}"`);
  return {
    budget: parseSize(values.budget),
    cellSeconds,
    reps: positiveWhole(values.reps, '--reps') ?? DEFAULT_REPS,
    rateBytesPerS: Math.round(Number(values['rate-mibps']) * MIB),
    rtts:
      values.rtts === undefined
        ? values.quick
          ? QUICK_RTTS_MS
          : RTTS_MS
        : numberList(values.rtts, '--rtts'),
    losses: values.losses === undefined ? LOSSES_PCT : numberList(values.losses, '--losses'),
    only: measurements(values.only),
    sctp: values.sctp,
    lanes: positiveWhole(values.lanes, '--lanes'),
    mtu: positiveWhole(values.mtu, '--mtu'),
    bareConnections: positiveWhole(values['bare-connections'], '--bare-connections'),
    lineMtu: positiveWhole(values['line-mtu'], '--line-mtu'),
  };
}
