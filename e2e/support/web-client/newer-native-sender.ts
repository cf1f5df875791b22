// A native sender one protocol version ahead of this build: `tsx newer-native-sender.ts SERVER
// PATH...`. Prints "Code: <code>" like the CLI, then any failure as "Error: <message>".
import { sendFiles } from '../../../src-main/engine';

const [serverUrl, ...paths] = process.argv.slice(2);
const transfer = sendFiles({
  serverUrl,
  paths,
  remedySurface: 'cli',
  ver: 'dev',
  protocolVersion: { pv: 2, pvMin: 2 },
});
for await (const state of transfer) {
  if (state.phase === 'waiting-for-peer') console.log(`Code: ${state.code}`);
  if (state.phase === 'failed') console.log(`Error: ${state.message}`);
}
process.exitCode = (await transfer.finished).phase === 'done' ? 0 : 1;
