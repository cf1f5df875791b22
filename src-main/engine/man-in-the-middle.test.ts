import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  filesUnder,
  sha256File,
  writeRandomFile,
  writeTextFile,
} from './test-support/files-on-disk';
import { useLoopbackRig } from './test-support/loopback-rig';
import {
  startManInTheMiddle,
  type Interception,
  type ManInTheMiddle,
} from './test-support/man-in-the-middle';
import { transferPair } from './test-support/transfer-pair';
import { DATA_CHANNEL_LABEL } from '../../src-shared/session/ports';

const MiB = 1024 * 1024;

const rig = useLoopbackRig();
let middle: ManInTheMiddle | undefined;

beforeAll(async () => {
  middle = await startManInTheMiddle(rig.server.url);
});
afterAll(async () => {
  await middle?.close();
});

function theMiddle(): ManInTheMiddle {
  if (middle === undefined) throw new Error('the man in the middle did not start');
  return middle;
}

/** The one interception that carried file bytes since `before` interceptions existed. */
function carrying(before: number): Interception {
  const carried = theMiddle()
    .interceptions.slice(before)
    .filter((interception) => interception.carried.toReceiver.binaryBytes > 0);
  expect(carried).toHaveLength(1);
  return carried[0] as Interception;
}

describe('a man in the middle that terminates both DTLS sessions', () => {
  it('is invisible to today’s Ferry: a batch with an empty file arrives byte-identical and verified, every byte through the middle', async () => {
    const source = join(rig.scratch.path, 'mitm-batch');
    await writeRandomFile(join(source, 'photos.bin'), 3 * MiB + 7);
    await writeFile(join(source, 'empty.dat'), '');
    await writeTextFile(join(source, 'notes', 'readme.txt'), 'through the middle\n');
    const destination = join(rig.scratch.path, 'mitm-batch-received');
    const before = theMiddle().interceptions.length;

    const outcome = await transferPair(
      theMiddle().url,
      { paths: [source], iceServers: [] },
      { destination, iceServers: [], reportBytes: false },
    );

    const totalBytes = 3 * MiB + 7 + 19;
    // Verified: the extensions were agreed and every digest matched, across the middle.
    expect(outcome.sender).toMatchObject({ phase: 'done', totalBytes, verified: true });
    expect(outcome.receiver).toMatchObject({ phase: 'done', totalBytes, verified: true });
    const received = await filesUnder(destination);
    expect(received).toEqual([
      'mitm-batch/empty.dat',
      'mitm-batch/notes/readme.txt',
      'mitm-batch/photos.bin',
    ]);
    for (const name of received) {
      expect(await sha256File(join(destination, name))).toBe(
        await sha256File(join(rig.scratch.path, name)),
      );
    }
    const interception = carrying(before);
    // Binary frames toward the receiver are file data and nothing else: all of it passed here.
    expect(interception.carried.toReceiver.binaryBytes).toBe(totalBytes);
    expect(interception.carried.toReceiver.textFrames).toBeGreaterThan(0);
    expect(
      interception.carried.toSender.binaryFrames + interception.carried.toSender.textFrames,
    ).toBeGreaterThan(0);
    expect(interception.channelLabels).toEqual({
      fromSender: DATA_CHANNEL_LABEL,
      toReceiver: DATA_CHANNEL_LABEL,
    });
    await interception.finished;
    expect(interception.problems).toEqual([]);
  });

  it('each peer completed DTLS against the middle’s certificate, never against the other peer’s', async () => {
    const file = join(rig.scratch.path, 'mitm-fingerprints', 'letter.txt');
    await writeTextFile(file, 'who am I talking to?\n');
    const destination = join(rig.scratch.path, 'mitm-fingerprints-received');
    const before = theMiddle().interceptions.length;

    const outcome = await transferPair(
      theMiddle().url,
      { paths: [file], iceServers: [] },
      { destination, iceServers: [], reportBytes: false },
    );

    expect(outcome.receiver).toMatchObject({ phase: 'done' });
    const { views, middleFingerprints, presented } = carrying(before);
    const { sender, receiver } = views;
    // Each real peer announced one certificate of its own, in the SDP it sent.
    expect(sender.own).toHaveLength(1);
    expect(receiver.own).toHaveLength(1);
    // What each was given for the other end, and so checked its DTLS session against: the
    // middle's certificate on its side, never the other peer's.
    expect(sender.given).toEqual(middleFingerprints.towardSender);
    expect(receiver.given).toEqual(middleFingerprints.towardReceiver);
    expect(sender.given).toHaveLength(1);
    expect(receiver.given).toHaveLength(1);
    expect(sender.given).not.toEqual(receiver.own);
    expect(receiver.given).not.toEqual(sender.own);
    expect(sender.given).not.toEqual(receiver.given);
    // The middle's own DTLS sessions checked the real peers' certificates.
    expect(presented).toEqual({ sender: sender.own[0], receiver: receiver.own[0] });
  });
  it('is caught by the secret link: the receiver holding the key stops before any file data, and nothing lands', async () => {
    const file = join(rig.scratch.path, 'mitm-link', 'letter.txt');
    await writeTextFile(file, 'only for the holder of the link\n');
    const destination = join(rig.scratch.path, 'mitm-link-received');
    const before = theMiddle().interceptions.length;
    const offers: unknown[] = [];

    const outcome = await transferPair(
      theMiddle().url,
      { paths: [file], iceServers: [] },
      {
        destination,
        iceServers: [],
        reportBytes: false,
        onOffer: async (offer) => (offers.push(offer), true),
      },
      undefined,
      undefined,
      true,
    );

    const intercepted = {
      phase: 'failed',
      code: 'ERR_LINK_MISMATCH',
      message: 'someone may be intercepting this connection',
    };
    expect(outcome.receiver).toMatchObject(intercepted);
    // The middle passes the receiver's refusal along, and the sender reads it back.
    expect(outcome.sender).toMatchObject(intercepted);
    expect(offers).toEqual([]);
    expect(await filesUnder(destination)).toEqual([]);
    const interceptions = theMiddle().interceptions.slice(before);
    expect(interceptions.length).toBeGreaterThan(0);
    for (const interception of interceptions) {
      expect(interception.carried.toReceiver.binaryBytes).toBe(0);
    }
  });
});
