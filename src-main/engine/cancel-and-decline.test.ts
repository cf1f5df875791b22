import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from './test-support/loopback-rig';
import { ACK_TIMEOUT_MS } from '../../src-shared/protocol';
import { filesUnder, writeRandomFile, writeTextFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';

const rig = useLoopbackRig();

describe('ending a transfer early', () => {
  it('a declined offer reaches the sender at once, named, not at the 120 s ack deadline, and nothing is written', async () => {
    const file = join(rig.scratch.path, 'declined', 'offer.txt');
    await writeTextFile(file, 'not wanted');
    const destination = join(rig.scratch.path, 'declined-received');
    let declinedAt = 0;

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], iceServers: [] },
      {
        destination,
        iceServers: [],
        onOffer: async () => {
          declinedAt = performance.now();
          return false;
        },
      },
    );
    const senderSawItAfter = performance.now() - declinedAt;

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_DECLINED' });
    expect(outcome.sender).toMatchObject({
      phase: 'failed',
      code: 'ERR_PEER_DECLINED',
      message: 'declined by the other person',
    });
    expect(senderSawItAfter).toBeLessThan(ACK_TIMEOUT_MS / 10);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('without the resume extension, a channel closed mid-file leaves neither the file nor its .part', async () => {
    const file = join(rig.scratch.path, 'cut', 'big.bin');
    await writeRandomFile(file, 32 * 1024 * 1024);
    const destination = join(rig.scratch.path, 'cut-received');

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], iceServers: [], extensions: false },
      { destination, iceServers: [] },
      (receiver) =>
        receiver.on('state', (state) => {
          // The receiver hangs up as soon as the first bytes are on disk.
          if (state.phase === 'transferring' && state.progress.fileBytes > 0) receiver.cancel();
        }),
    );

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_CLOSED' });
    expect(await filesUnder(destination)).toEqual([]);
  });

  // docs/protocol.md, "Named outcomes": between two Ferry peers a person's stop is named.
  it('a receiver that stops mid-file is named to the sender, not read as a lost connection', async () => {
    const file = join(rig.scratch.path, 'receiver-stops', 'big.bin');
    await writeRandomFile(file, 32 * 1024 * 1024);

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], iceServers: [] },
      { destination: join(rig.scratch.path, 'receiver-stops-received'), iceServers: [] },
      (receiver) =>
        receiver.on('state', (state) => {
          if (state.phase === 'transferring' && state.progress.fileBytes > 0) receiver.cancel();
        }),
    );

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_CANCELLED' });
  });

  it('a sender that stops mid-file is named to the receiver', async () => {
    const file = join(rig.scratch.path, 'sender-stops', 'big.bin');
    await writeRandomFile(file, 32 * 1024 * 1024);

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], iceServers: [] },
      { destination: join(rig.scratch.path, 'sender-stops-received'), iceServers: [] },
      undefined,
      (sender) =>
        sender.on('state', (state) => {
          if (state.phase === 'transferring' && state.progress.bytesDone > 0) sender.cancel();
        }),
    );

    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
    expect(outcome.receiver).toMatchObject({
      phase: 'failed',
      code: 'ERR_PEER_CANCELLED',
      message: 'stopped by the other person',
    });
  });

  it('a sender that stops while the receiving person decides is named to the receiver', async () => {
    const file = join(rig.scratch.path, 'sender-stops-early', 'offer.txt');
    await writeTextFile(file, 'never mind');
    let stopSender = (): void => undefined;

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], iceServers: [] },
      {
        destination: join(rig.scratch.path, 'sender-stops-early-received'),
        iceServers: [],
        onOffer: () => {
          stopSender();
          return new Promise<boolean>(() => undefined);
        },
      },
      undefined,
      (sender) => (stopSender = () => sender.cancel()),
    );

    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_CANCELLED' });
    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_PEER_CANCELLED' });
  });

  it('an offer nobody answers fails the sender at its ack deadline, which options can shorten', async () => {
    const file = join(rig.scratch.path, 'unanswered', 'waiting.txt');
    await writeTextFile(file, 'anyone there?');
    const destination = join(rig.scratch.path, 'unanswered-received');

    const outcome = await transferPair(
      rig.server.url,
      { paths: [file], iceServers: [], timeouts: { ack: 300 } },
      { destination, iceServers: [], onOffer: () => new Promise<boolean>(() => undefined) },
    );

    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_ACK_TIMEOUT' });
    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_PEER_CLOSED' });
    expect(await filesUnder(destination)).toEqual([]);
  });
});
