// A native peer in its own process, for tests: the transfer engine's sendFiles or receiveFiles,
// driven from the command line much as the CLI drives it.
//   send <server> <path>...              prints "Code: <code>", then the final state as JSON
//   receive <server> <code> <folder>     prints the final state as JSON
// Exits 0 when the transfer is done, 1 when it failed.
import { receiveFiles, sendFiles } from '../../engine';

const [mode, serverUrl, ...rest] = process.argv.slice(2);
if ((mode !== 'send' && mode !== 'receive') || serverUrl === undefined || rest.length === 0) {
  console.error('usage: engine-peer send <server> <path>... | receive <server> <code> <folder>');
  process.exit(2);
}
const transfer =
  mode === 'send'
    ? sendFiles({ serverUrl, paths: rest, remedySurface: 'cli' })
    : receiveFiles({ serverUrl, code: rest[0], destination: rest[1], remedySurface: 'cli' });
transfer.on('state', (state) => {
  if (state.phase === 'waiting-for-peer') console.log(`Code: ${state.code}`);
});
const final = await transfer.finished;
console.log(JSON.stringify(final));
process.exit(final.phase === 'done' ? 0 : 1);
