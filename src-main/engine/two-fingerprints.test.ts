import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { specReceive, specSend } from '../../test-peers/spec-peer/index';
import { receiveFiles } from '.';
import { filesUnder, writeRandomFile } from './test-support/files-on-disk';
import { useLoopbackRig } from './test-support/loopback-rig';
import { startRewritingRelay, type RewritingRelay } from './test-support/man-in-the-middle';
import { addSecondFingerprint } from './test-support/second-fingerprint';
import { startSender } from './test-support/transfer-pair';

// docs/protocol.md, "Connection requirement": a description listing two certificates is refused
// before node-datachannel sees it, by whichever side it is relayed to, with ERR_TWO_FINGERPRINTS.
const rig = useLoopbackRig();
let relay: RewritingRelay | undefined;

afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

describe('a relay that adds a second a=fingerprint line', () => {
  it.each([
    ['offer', 'receiver'],
    ['answer', 'sender'],
  ] as const)('to the %s: the %s refuses it, and no file arrives', async (type, refuser) => {
    relay = await startRewritingRelay(rig.server.url, addSecondFingerprint(type));
    const source = join(rig.scratch.path, `two-prints-${type}`, 'photo.bin');
    await writeRandomFile(source, 65_536);
    const destination = join(rig.scratch.path, `two-prints-${type}-received`);
    const { sender, code } = await startSender(relay.url, { paths: [source], iceServers: [] });
    const receiver = receiveFiles({
      serverUrl: relay.url,
      remedySurface: 'cli',
      code,
      destination,
      iceServers: [],
      reportBytes: false,
    });
    const refusing = refuser === 'receiver' ? receiver : sender;
    const other = refuser === 'receiver' ? sender : receiver;

    const refused = await refusing.finished;
    // The other side is left waiting for a connection that will not come; the test ends it.
    other.cancel();
    await other.finished;

    expect(refused).toMatchObject({ phase: 'failed', code: 'ERR_TWO_FINGERPRINTS' });
    expect(await filesUnder(destination).catch(() => [])).toEqual([]);
  });
});

// The same refusal facing the strict spec-only peer (test-peers/spec-peer/), which is not Ferry.
describe('the strict spec-only peer behind a relay that adds a second a=fingerprint line', () => {
  it('sends an offer with two lines: the Ferry receiver refuses it, and nothing is written', async () => {
    relay = await startRewritingRelay(rig.server.url, addSecondFingerprint('offer'));
    const destination = join(rig.scratch.path, 'spec-offer-received');
    let receiver: ReturnType<typeof receiveFiles> | undefined;
    const sent = specSend({
      serverUrl: relay.url,
      files: [{ name: 'notes.txt', bytes: new TextEncoder().encode('two prints\n') }],
      onCode: (code) => {
        receiver = receiveFiles({
          serverUrl: relay?.url ?? '',
          remedySurface: 'cli',
          code,
          destination,
          iceServers: [],
          reportBytes: false,
        });
      },
    }).then(
      () => 'sent',
      () => 'refused',
    );

    expect(await sent).toBe('refused');
    expect(await receiver?.finished).toMatchObject({
      phase: 'failed',
      code: 'ERR_TWO_FINGERPRINTS',
    });
    expect(await filesUnder(destination).catch(() => [])).toEqual([]);
  });

  it('answers with two lines: the Ferry sender refuses it, and nothing is written', async () => {
    relay = await startRewritingRelay(rig.server.url, addSecondFingerprint('answer'));
    const source = join(rig.scratch.path, 'spec-answer', 'photo.bin');
    await writeRandomFile(source, 65_536);
    const destination = join(rig.scratch.path, 'spec-answer-received');
    const { sender, code } = await startSender(relay.url, { paths: [source], iceServers: [] });
    const received = specReceive({ serverUrl: relay.url, code, dir: destination }).then(
      () => 'received',
      () => 'refused',
    );

    expect(await sender.finished).toMatchObject({ phase: 'failed', code: 'ERR_TWO_FINGERPRINTS' });
    expect(await received).toBe('refused');
    expect(await filesUnder(destination).catch(() => [])).toEqual([]);
  });
});
