// One end of an engine transfer for the bench, in its own process like two real devices.
//   tsx bench/transfer/engine-peer.ts send <server> <file> [--no-extensions] [--expect-cut]
//   tsx bench/transfer/engine-peer.ts receive <server> <code> <folder> [--no-extensions]
//                                     [--cancel-at <bytes>]
// `--no-extensions` speaks the spec's wire alone (no verification, no resume). `--cancel-at`
// makes the receiver cancel once that many bytes are on its disk, keeping its .part for a resume;
// `--expect-cut` tells the sender that its peer will do so, so its failure is no failure.
import { parseArgs } from 'node:util';
import { receiveFiles, sendFiles, type Transfer } from '../../src-main/engine';
import { finishedReport, now, report } from './bench-messages';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'no-extensions': { type: 'boolean', default: false },
    'expect-cut': { type: 'boolean', default: false },
    'cancel-at': { type: 'string' },
  },
});
const [mode, serverUrl, ...rest] = positionals;
const common = {
  serverUrl,
  remedySurface: 'cli' as const,
  iceServers: [],
  extensions: !values['no-extensions'],
};
const cancelAt = values['cancel-at'] === undefined ? undefined : Number(values['cancel-at']);
let cut = values['expect-cut'];

let transfer: Transfer;
if (mode === 'send') {
  transfer = sendFiles({ ...common, paths: [rest[0]] });
  transfer.on('state', (state) => {
    if (state.phase === 'waiting-for-peer') report({ type: 'code', code: state.code });
  });
  transfer.on('connected', () => report({ type: 'open', at: now() }));
} else {
  transfer = receiveFiles({ ...common, code: rest[0], destination: rest[1], reportBytes: false });
  transfer.on('state', (state) => {
    if (state.phase === 'done') {
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
