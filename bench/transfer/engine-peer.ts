// One end of an engine transfer for the bench, in its own process like two real devices.
//   tsx bench/transfer/engine-peer.ts send <server> <file> [--no-extensions] [--expect-cut]
//   tsx bench/transfer/engine-peer.ts receive <server> <code> <folder> [--no-extensions]
//                                     [--cancel-at <bytes>] [--stop-after-seconds <N>]
//   both: [--sctp '<json>'] [--lanes <N>]
// `--no-extensions` speaks the spec's wire alone (no verification, no resume). `--cancel-at`
// makes the receiver cancel once that many bytes are on its disk, keeping its .part for a resume;
// `--stop-after-seconds` makes it report what it has N seconds after its transfer began moving
// data (phase `transferring`), unverified, and cancel (and what it had halfway, as `midway`);
// `--expect-cut` tells the sender that its peer will do either, so its failure is no failure.
// `--sctp` sets node-datachannel's SCTP settings in place of the engine's own (which it sets only
// when no one did before it); `--lanes` is the engine's `lanes` option, passed only when given.
import { parseArgs } from 'node:util';
import { processSctp, receiveFiles, sendFiles, type Transfer } from '../../src-main/engine';
import { finishedReport, now, report } from './bench-messages';
import { parseSctpSettings } from './sctp-settings';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'no-extensions': { type: 'boolean', default: false },
    'expect-cut': { type: 'boolean', default: false },
    'cancel-at': { type: 'string' },
    'stop-after-seconds': { type: 'string' },
    sctp: { type: 'string' },
    lanes: { type: 'string' },
  },
});
if (values.sctp !== undefined) processSctp.useNative(parseSctpSettings(values.sctp));

const MS_PER_S = 1000;

const [mode, serverUrl, ...rest] = positionals;
const common = {
  serverUrl,
  remedySurface: 'cli' as const,
  iceServers: [],
  extensions: !values['no-extensions'],
  ...(values.lanes === undefined ? {} : { lanes: Number(values.lanes) }),
};
const cancelAt = values['cancel-at'] === undefined ? undefined : Number(values['cancel-at']);
const stopAfterMs =
  values['stop-after-seconds'] === undefined
    ? undefined
    : Number(values['stop-after-seconds']) * MS_PER_S;
let cut = values['expect-cut'];

let transfer: Transfer;
let transferringAt: number | undefined;
/** Reports, once, the moment this side's transfer first moves file data. */
function noteTransferring(): boolean {
  if (transferringAt !== undefined) return false;
  transferringAt = now();
  report({ type: 'transferring', at: transferringAt });
  return true;
}

if (mode === 'send') {
  transfer = sendFiles({ ...common, paths: [rest[0]] });
  transfer.on('state', (state) => {
    if (state.phase === 'waiting-for-peer') report({ type: 'code', code: state.code });
    if (state.phase === 'transferring') noteTransferring();
  });
  transfer.on('connected', () => report({ type: 'open', at: now() }));
} else {
  transfer = receiveFiles({ ...common, code: rest[0], destination: rest[1], reportBytes: false });
  // The latest byte count and when it was current: progress is throttled, so a time-limited
  // receiver reports the last count it saw with that count's own time, not the deadline's.
  let latest = { bytes: 0, at: 0 };
  let stopTimer: NodeJS.Timeout | undefined;
  let midwayTimer: NodeJS.Timeout | undefined;
  transfer.on('state', (state) => {
    if (state.phase === 'transferring') {
      latest = { bytes: state.progress.bytesDone, at: now() };
      if (noteTransferring() && stopAfterMs !== undefined) {
        stopTimer = setTimeout(stopAtDeadline, stopAfterMs);
        // The second half of the window is past the lanes' setup and slow start.
        midwayTimer = setTimeout(() => report({ type: 'midway', ...latest }), stopAfterMs / 2);
      }
    }
    if (state.phase === 'done') {
      clearTimeout(stopTimer);
      clearTimeout(midwayTimer);
      const resumed = state.files.reduce((sum, file) => sum + (file.resumedBytes ?? 0), 0);
      report({
        type: 'received',
        at: now(),
        bytes: state.totalBytes,
        verified: state.verified === true,
        resumedBytes: resumed,
      });
    }
    if (
      cancelAt !== undefined &&
      !cut &&
      state.phase === 'transferring' &&
      state.progress.bytesDone >= cancelAt
    ) {
      cut = true;
      report({ type: 'cut', bytesDone: state.progress.bytesDone });
      transfer.cancel();
    }
  });
  const stopAtDeadline = (): void => {
    const phase = transfer.state.phase;
    if (phase === 'done' || phase === 'failed') return;
    cut = true;
    report({ type: 'received', at: latest.at, bytes: latest.bytes, verified: false });
    transfer.cancel();
  };
}

const final = await transfer.finished;
// After its own cancel a receiver fails with ERR_CANCELLED, as asked; a sender told its peer
// would hang up fails however the hang-up reaches it. Anything else is a failure to report.
const expected =
  cut && (mode === 'send' || (final.phase === 'failed' && final.code === 'ERR_CANCELLED'));
if (final.phase === 'failed' && !expected) {
  report({ type: 'failed', message: `${mode}: ${final.message}` });
}
report(finishedReport());
process.disconnect?.();
