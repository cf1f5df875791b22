// A native sender that stripes even over loopback (docs/protocol.md, "Lanes"): `tsx
// striping-native-sender.ts SERVER PATH...`. Prints "Code: <code>" like the CLI, then
// "Striped over lanes <n,…>" once its stripe message goes, and any failure as "Error: <message>".
import { sendFiles } from '../../../src-main/engine';

/** Lanes open only over a measured round trip of 5 ms or more; loopback has none to speak of. */
const LANES = { lanes: 4, laneMinRoundTripMs: 0 };

const [serverUrl, ...paths] = process.argv.slice(2);
const transfer = sendFiles({
  serverUrl,
  paths,
  remedySurface: 'cli',
  ...LANES,
  testSeam: {
    outgoing: (frame) => {
      if (frame.kind === 'text' && frame.text.includes('"ferry-stripe"')) {
        const { lanes } = JSON.parse(frame.text) as { lanes: number[] };
        console.log(`Striped over lanes ${lanes.join(',')}`);
      }
      return frame;
    },
  },
});
for await (const state of transfer) {
  if (state.phase === 'waiting-for-peer') console.log(`Code: ${state.code}`);
  if (state.phase === 'failed') console.log(`Error: ${state.message}`);
}
const final = await transfer.finished;
if (final.phase === 'done')
  console.log(`Done: confirmed ${final.confirmed}, verified ${final.verified}`);
process.exitCode = final.phase === 'done' ? 0 : 1;
