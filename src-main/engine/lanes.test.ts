import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../src-shared/protocol';
import { LANE_MIN_BATCH_BYTES } from '../../src-shared/session/session-limits';
import type { FinalState, Transfer } from '.';
import { useLoopbackRig } from './test-support/loopback-rig';
import {
  filesUnder,
  sha256File,
  writeRandomFile,
  writeTextFile,
} from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

const MiB = 1024 * 1024;
const rig = useLoopbackRig();

/** Loopback has no round trip to speak of: these peers open lanes regardless. */
const LANES = { lanes: 4, laneMinRoundTripMs: 0, iceServers: [] };

/**
 * What the sender put on its first connection (docs/protocol.md, "Lanes"): its stripe messages,
 * whether it offered lanes, and the binary frames (file bytes) it sent there after its first lane
 * offer and before a stripe.
 */
function watchStripes(): {
  stripes: string[];
  lanesOffered: () => boolean;
  bytesWhileLanesOpened: () => number;
  outgoing: (frame: Frame) => Frame;
} {
  const stripes: string[] = [];
  let offered = false;
  let bytes = 0;
  return {
    stripes,
    lanesOffered: () => offered,
    bytesWhileLanesOpened: () => bytes,
    outgoing: (frame) => {
      if (frame.kind === 'text' && frame.text.includes('"ferry-stripe"')) stripes.push(frame.text);
      if (frame.kind === 'text' && frame.text.includes('"ferry-lane"')) offered = true;
      if (frame.kind === 'binary' && offered && stripes.length === 0) bytes += frame.bytes.length;
      return frame;
    },
  };
}

function hangUpAfter(bytes: number): (receiver: Transfer) => void {
  return (receiver) =>
    receiver.on('state', (state) => {
      if (state.phase === 'transferring' && state.progress.bytesDone >= bytes) receiver.cancel();
    });
}

function resumed(state: FinalState): number {
  if (state.phase !== 'done') throw new Error(`the transfer failed: ${state.message}`);
  return state.files.reduce((sum, file) => sum + (file.resumedBytes ?? 0), 0);
}

describe('lanes: a batch striped over several connections between two engines', () => {
  it('arrives byte-identical and verified over four connections', async () => {
    const source = join(rig.scratch.path, 'striped-source');
    await writeTextFile(join(source, 'notes', 'first.txt'), 'before the big one\n');
    await writeRandomFile(join(source, 'big.bin'), 48 * MiB);
    const destination = join(rig.scratch.path, 'striped-received');
    const { stripes, bytesWhileLanesOpened, outgoing } = watchStripes();

    const outcome = await transferPair(
      rig.server.url,
      { ...LANES, paths: [join(source, 'notes'), join(source, 'big.bin')], testSeam: { outgoing } },
      { ...LANES, destination },
    );

    expect(stripes.map((text) => JSON.parse(text) as unknown)).toEqual([
      { type: 'ferry-stripe', lanes: [1, 2, 3] },
    ]);
    // Bytes queued on the ordered first connection then would hold back all the lanes carry.
    expect(bytesWhileLanesOpened()).toBe(0);
    expect(outcome.sender).toMatchObject({ phase: 'done', confirmed: true, verified: true });
    expect(outcome.receiver).toMatchObject({ phase: 'done', verified: true });
    expect(await filesUnder(destination)).toEqual(['big.bin', 'notes/first.txt']);
    expect(await sha256File(join(destination, 'big.bin'))).toBe(
      await sha256File(join(source, 'big.bin')),
    );
  });

  it('resumes a cut file over lanes, moving only the rest, verified', async () => {
    const file = join(rig.scratch.path, 'resume-source', 'big.bin');
    await writeRandomFile(file, 48 * MiB);
    const destination = join(rig.scratch.path, 'resume-received');
    const first = await transferPair(
      rig.server.url,
      { ...LANES, paths: [file] },
      { ...LANES, destination },
      hangUpAfter(24 * MiB),
    );
    expect(first.receiver).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });

    const second = await transferPair(
      rig.server.url,
      { ...LANES, paths: [file] },
      { ...LANES, destination },
    );

    expect(resumed(second.receiver)).toBeGreaterThanOrEqual(16 * MiB);
    expect(second.receiver).toMatchObject({ phase: 'done', verified: true });
    expect(await sha256File(join(destination, 'big.bin'))).toBe(await sha256File(file));
  });

  it('keeps a batch too small for lanes on one connection, though both speak them', async () => {
    const source = join(rig.scratch.path, 'small-source');
    await writeRandomFile(join(source, 'a.bin'), LANE_MIN_BATCH_BYTES / 2);
    await writeRandomFile(join(source, 'b.bin'), LANE_MIN_BATCH_BYTES / 2 - 1);
    const destination = join(rig.scratch.path, 'small-received');
    const { stripes, lanesOffered, outgoing } = watchStripes();

    const outcome = await transferPair(
      rig.server.url,
      { ...LANES, paths: [join(source, 'a.bin'), join(source, 'b.bin')], testSeam: { outgoing } },
      { ...LANES, destination },
    );

    expect(lanesOffered()).toBe(false);
    expect(stripes).toEqual([]);
    expect(outcome.sender).toMatchObject({ phase: 'done', confirmed: true, verified: true });
    expect(outcome.receiver).toMatchObject({ phase: 'done', verified: true });
    expect(await filesUnder(destination)).toEqual(['a.bin', 'b.bin']);
  });

  it('stays on one connection when the receiver does not speak lanes', async () => {
    const file = join(rig.scratch.path, 'single-source', 'one.bin');
    // Large enough for lanes, so only the receiver's missing `lanes` keeps it on one connection.
    await writeRandomFile(file, 2 * LANE_MIN_BATCH_BYTES);
    const destination = join(rig.scratch.path, 'single-received');
    const { stripes, outgoing } = watchStripes();

    const outcome = await transferPair(
      rig.server.url,
      { ...LANES, paths: [file], testSeam: { outgoing } },
      { ...LANES, lanes: 1, destination },
    );

    expect(stripes).toEqual([]);
    expect(outcome.receiver).toMatchObject({ phase: 'done', verified: true });
    expect(await sha256File(join(destination, 'one.bin'))).toBe(await sha256File(file));
  });
});
