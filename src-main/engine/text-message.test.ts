import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { receiveFiles, sendText, type FinalState, type ReceiveOptions } from '.';
import { textFrame, type Frame } from '../../src-shared/protocol/frame';
import { TEXT_MESSAGE_FILE_NAME, TEXT_MESSAGE_MAX_BYTES } from '../../src-shared/protocol/limits';
import { filesUnder } from './test-support/files-on-disk';
import { useLoopbackRig } from './test-support/loopback-rig';
import { transferPair } from './test-support/transfer-pair';

// docs/protocol.md, "Text messages", between two engines through a real signaling server.
const rig = useLoopbackRig();
const TEXT = 'Meet at 6 — https://example.com/plan?x=1 ✓\nsecond line\n';

async function textPair(
  text: string,
  receive: Omit<ReceiveOptions, 'serverUrl' | 'remedySurface' | 'code'>,
): Promise<{ sender: FinalState; receiver: FinalState }> {
  const sender = sendText({
    serverUrl: rig.server.url,
    remedySurface: 'cli',
    text,
    iceServers: [],
  });
  const code = await new Promise<string>((resolve, reject) =>
    sender.on('state', (state) => {
      if (state.phase === 'waiting-for-peer') resolve(state.code);
      if (state.phase === 'failed') reject(new Error(state.message));
    }),
  );
  const receiver = receiveFiles({
    serverUrl: rig.server.url,
    remedySurface: 'cli',
    iceServers: [],
    ...receive,
    code,
  });
  const [senderFinal, receiverFinal] = await Promise.all([sender.finished, receiver.finished]);
  return { sender: senderFinal, receiver: receiverFinal };
}

describe('a text message between two engines', () => {
  it('arrives as text in the done view, verified, with nothing written to disk', async () => {
    const destination = join(rig.scratch.path, 'text-shown');
    let offered: unknown;
    const { sender, receiver } = await textPair(TEXT, {
      destination,
      onOffer: async (offer) => {
        offered = offer;
        return true;
      },
    });
    expect(offered).toMatchObject({ textMessage: true, fileCount: 1 });
    expect(sender).toMatchObject({ phase: 'done', files: [{ name: TEXT_MESSAGE_FILE_NAME }] });
    expect(receiver).toMatchObject({ phase: 'done', text: TEXT, verified: true });
    expect(receiver).not.toHaveProperty('folder');
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('is saved as message.txt by a Ferry receiver that does not speak `text`', async () => {
    const destination = join(rig.scratch.path, 'text-older');
    const { receiver } = await textPair(TEXT, {
      destination,
      testSeam: { withoutCaps: ['text'] },
    });
    expect(receiver).toMatchObject({ phase: 'done', verified: true });
    expect(receiver).not.toHaveProperty('text');
    expect(await filesUnder(destination)).toEqual([TEXT_MESSAGE_FILE_NAME]);
    expect(await readFile(join(destination, TEXT_MESSAGE_FILE_NAME), 'utf8')).toBe(TEXT);
  });

  it('is refused by the sender when it is over the limit', async () => {
    const sender = sendText({
      serverUrl: rig.server.url,
      remedySurface: 'cli',
      text: 'x'.repeat(TEXT_MESSAGE_MAX_BYTES + 1),
      iceServers: [],
    });
    expect(await sender.finished).toMatchObject({
      phase: 'failed',
      code: 'ERR_SOURCE_UNREADABLE',
    });
  });

  it('goes to disk when a sender flags a message.txt over the limit as a text', async () => {
    const source = join(rig.scratch.path, 'big-text');
    const big = 'y'.repeat(TEXT_MESSAGE_MAX_BYTES + 1);
    const named = join(source, TEXT_MESSAGE_FILE_NAME);
    await mkdir(source, { recursive: true });
    await writeFile(named, big);
    const destination = join(rig.scratch.path, 'big-text-received');
    const outcome = await transferPair(
      rig.server.url,
      { paths: [named], iceServers: [], testSeam: { outgoing: flaggedAsText } },
      { destination, iceServers: [] },
    );
    expect(outcome.receiver).toMatchObject({ phase: 'done' });
    expect(outcome.receiver).not.toHaveProperty('text');
    expect(await readFile(join(destination, TEXT_MESSAGE_FILE_NAME), 'utf8')).toBe(big);
  });
});

/** The sender's caps, saying its batch is a text message whatever it is. */
function flaggedAsText(frame: Frame): Frame {
  if (frame.kind !== 'text' || !frame.text.includes('"ferry-caps"')) return frame;
  return textFrame(JSON.stringify({ ...JSON.parse(frame.text), text: true }));
}
