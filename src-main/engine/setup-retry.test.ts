import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from './test-support/loopback-rig';
import type { TransferState } from '.';
import { sha256File, writeRandomFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

const rig = useLoopbackRig();

const isCandidateOfAttempt = (payload: unknown, attempt: number): boolean =>
  typeof payload === 'object' &&
  payload !== null &&
  'candidate' in payload &&
  'attempt' in payload &&
  payload.attempt === attempt;

/** The connecting stages a side showed, in order, each once. */
function stagesOf(states: readonly TransferState[]): string[] {
  const stages = states.flatMap((state) => (state.phase === 'connecting' ? [state.stage] : []));
  return stages.filter((stage, index) => stage !== stages[index - 1]);
}

describe('the stages of a connection setup', () => {
  it('are shown as the session reaches them: finding the other device, directly, securing', async () => {
    const file = join(rig.scratch.path, 'staged.bin');
    await writeRandomFile(file, 1024);
    const senderStates: TransferState[] = [];
    const receiverStates: TransferState[] = [];

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], route: 'host-only' },
      { destination: join(rig.scratch.path, 'staged-received'), route: 'host-only' },
      (receiver) => receiver.on('state', (state) => receiverStates.push(state)),
      (sender) => sender.on('state', (state) => senderStates.push(state)),
    );

    expect(outcome.receiver).toMatchObject({ phase: 'done' });
    expect(stagesOf(receiverStates)).toEqual(['finding', 'direct', 'securing']);
    // A sender is shown connecting once its receiver came: the other device is found.
    expect(stagesOf(senderStates)).toEqual(['direct', 'securing']);
  });
});

describe('connection setup that fails', () => {
  it('retries a first attempt that found no route, and the batch still arrives whole', async () => {
    const file = join(rig.scratch.path, 'retried.bin');
    await writeRandomFile(file, 256 * 1024);
    const destination = join(rig.scratch.path, 'retried-received');
    const senderStates: TransferState[] = [];

    const outcome = await transferPair(
      rig.server.url,
      {
        paths: [file],
        route: 'host-only',
        // Attempt 1 loses every candidate, both ways: no route can form on it.
        signalFilter: (payload) => !isCandidateOfAttempt(payload, 1),
        timeouts: { connectAttempt: 1500 },
      },
      { destination, route: 'host-only' },
      undefined,
      (sender) => sender.on('state', (state) => senderStates.push(state)),
    );

    expect(outcome.sender).toMatchObject({ phase: 'done' });
    expect(outcome.receiver).toMatchObject({ phase: 'done' });
    expect(senderStates).toContainEqual(expect.objectContaining({ phase: 'connecting', retry: 1 }));
    expect(await sha256File(join(destination, 'retried.bin'))).toBe(await sha256File(file));
  });

  it('ends with "no route between the devices" and its remedy when no route exists at all', async () => {
    const file = join(rig.scratch.path, 'unroutable.bin');
    await writeRandomFile(file, 1024);
    const destination = join(rig.scratch.path, 'unroutable-received');
    // Relay candidates only, and no relay: neither side has a single candidate to offer.
    const noRoute = {
      route: 'relay-only' as const,
      iceServers: [],
      timeouts: { connect: 2500, connectAttempt: 1000 },
    };

    const receiverStates: TransferState[] = [];
    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], ...noRoute },
      { destination, ...noRoute },
      (receiver) => receiver.on('state', (state) => receiverStates.push(state)),
    );

    // The screen showed where it stopped: the devices found each other, no direct route formed.
    expect(stagesOf(receiverStates)).toEqual(['finding', 'direct']);

    for (const side of [outcome.sender, outcome.receiver]) {
      expect(side).toMatchObject({ phase: 'failed', code: 'ERR_NO_ROUTE' });
      expect(side.phase === 'failed' && side.message).toMatch(
        /no network route .*same network, or use a relay/,
      );
    }
  });
});
