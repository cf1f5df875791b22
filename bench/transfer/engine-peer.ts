// One end of an engine transfer for the bench, in its own process like two real devices.
//   tsx bench/transfer/engine-peer.ts send <server> <file>
//   tsx bench/transfer/engine-peer.ts receive <server> <code> <folder>
import { receiveFiles, sendFiles, type Transfer } from '../../src-main/engine';
import { finishedReport, now, report } from './bench-messages';

const [mode, serverUrl, ...rest] = process.argv.slice(2);
const common = { serverUrl, remedySurface: 'cli' as const, iceServers: [] };

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
    if (state.phase === 'done') report({ type: 'received', at: now(), bytes: state.totalBytes });
  });
}

const final = await transfer.finished;
if (final.phase === 'failed') report({ type: 'failed', message: `${mode}: ${final.message}` });
report(finishedReport());
process.disconnect?.();
