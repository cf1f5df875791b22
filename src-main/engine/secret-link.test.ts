import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OfferView, PeerCheck } from '../../src-shared/transfer/transfer-view';
import { filesUnder, writeTextFile } from './test-support/files-on-disk';
import { useLoopbackRig } from './test-support/loopback-rig';
import { transferPair } from './test-support/transfer-pair';
import type { Transfer } from '.';

// docs/protocol.md, "Secret link", between two native peers on loopback: a receiver given the
// key from the sender's link proves the connection with it, and nobody compares words.
const rig = useLoopbackRig();

/** Every check the sender published, in order. */
function checksOf(sender: Transfer): PeerCheck[] {
  const checks: PeerCheck[] = [];
  sender.on('state', (state) => {
    if ('peerCheck' in state && state.peerCheck !== undefined) checks.push(state.peerCheck);
  });
  return checks;
}

describe('two native peers and the secret link', () => {
  it('verify automatically on both sides when the receiver holds the link’s key', async () => {
    const source = join(rig.scratch.path, 'link', 'note.txt');
    await writeTextFile(source, 'proved by the link');
    const destination = join(rig.scratch.path, 'link-received');
    const offers: OfferView[] = [];
    let senderChecks: PeerCheck[] = [];
    const asked: PeerCheck[] = [];

    const outcome = await transferPair(
      rig.server.url,
      {
        paths: [source],
        iceServers: [],
        onPeerCheck: async (check) => (asked.push(check), true),
      },
      { destination, iceServers: [], onOffer: async (offer) => (offers.push(offer), true) },
      undefined,
      (sender) => (senderChecks = checksOf(sender)),
      true,
    );

    expect(outcome.sender.phase).toBe('done');
    expect(outcome.receiver.phase).toBe('done');
    expect(offers.map((offer) => offer.peerCheck)).toEqual([{ kind: 'link' }]);
    expect(asked).toEqual([{ kind: 'link' }]);
    expect(senderChecks.length).toBeGreaterThan(0);
    expect(senderChecks.every((check) => check.kind === 'link')).toBe(true);
    expect(await filesUnder(destination)).toEqual(['note.txt']);
  });

  it('without the key, show the words as before', async () => {
    const source = join(rig.scratch.path, 'no-key', 'note.txt');
    await writeTextFile(source, 'typed the code only');
    const destination = join(rig.scratch.path, 'no-key-received');
    const offers: OfferView[] = [];

    const outcome = await transferPair(
      rig.server.url,
      { paths: [source], iceServers: [] },
      { destination, iceServers: [], onOffer: async (offer) => (offers.push(offer), true) },
    );

    expect(outcome.receiver.phase).toBe('done');
    expect(offers[0].peerCheck).toEqual({
      kind: 'words',
      words: expect.stringMatching(/^[a-z]+ [a-z]+ [a-z]+$/),
    });
  });

  it('refuse a sender whose proof does not check out, with the same words on both sides, before anything lands', async () => {
    const source = join(rig.scratch.path, 'wrong-key', 'note.txt');
    await writeTextFile(source, 'another secret');
    const destination = join(rig.scratch.path, 'wrong-key-received');
    const offers: OfferView[] = [];

    const outcome = await transferPair(
      rig.server.url,
      { paths: [source], iceServers: [] },
      {
        destination,
        iceServers: [],
        // A key that is not this sender's: its proof cannot be the one this side expects.
        linkSecret: 'AAAAAAAAAAAAAAAAAAAAAA',
        onOffer: async (offer) => (offers.push(offer), true),
      },
    );

    const intercepted = {
      phase: 'failed',
      code: 'ERR_LINK_MISMATCH',
      message: 'someone may be intercepting this connection',
    };
    expect(outcome.receiver).toMatchObject(intercepted);
    expect(outcome.sender).toMatchObject(intercepted);
    expect(offers).toEqual([]);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('refuse, with the key, a sender that does not name link, before anything lands', async () => {
    const source = join(rig.scratch.path, 'old-sender', 'note.txt');
    await writeTextFile(source, 'an older sender');
    const destination = join(rig.scratch.path, 'old-sender-received');
    const offers: OfferView[] = [];

    const outcome = await transferPair(
      rig.server.url,
      { paths: [source], iceServers: [], extensions: false },
      {
        destination,
        iceServers: [],
        linkSecret: 'AAAAAAAAAAAAAAAAAAAAAA',
        onOffer: async (offer) => (offers.push(offer), true),
      },
    );

    expect(outcome.receiver).toMatchObject({
      phase: 'failed',
      code: 'ERR_LINK_MISMATCH',
      message:
        'someone may be intercepting this connection (the other device did not prove the link’s secret)',
    });
    // A sender that never heard of links reads the spec's abort with its reason.
    expect(outcome.sender).toMatchObject({
      phase: 'failed',
      code: 'ERR_PEER_ABORTED',
      message: expect.stringContaining('this device did not prove it'),
    });
    expect(offers).toEqual([]);
    expect(await filesUnder(destination)).toEqual([]);
  });
});
