import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textFrame, type Frame } from '../../src-shared/protocol';
import type { OfferView, PeerCheck } from '../../src-shared/transfer/transfer-view';
import { useLoopbackRig } from './test-support/loopback-rig';
import { filesUnder, writeTextFile } from './test-support/files-on-disk';
import { transferPair } from './test-support/transfer-pair';
import type { Transfer } from '.';

// docs/protocol.md, "Verification words", between two native peers on loopback: node-datachannel
// reports each connection's certificates, and each side derives the words from what it sees.
const rig = useLoopbackRig();

/** How long the sending person looks at the words before answering. */
const PERSON_THINKS_MS = 1000;
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The check the sender showed beside "waiting for the other person". */
function shownBy(sender: Transfer): () => PeerCheck | undefined {
  let shown: PeerCheck | undefined;
  sender.on('state', (state) => {
    if (state.phase === 'waiting-for-acceptance' && state.peerCheck) shown ??= state.peerCheck;
  });
  return () => shown;
}

/** A receiver's offer handler that accepts and keeps what it was shown. */
function accepting(): { offers: OfferView[]; onOffer: (offer: OfferView) => Promise<true> } {
  const offers: OfferView[] = [];
  return { offers, onOffer: async (offer) => (offers.push(offer), true) };
}

describe('two native peers and the verification words', () => {
  it('show the same three words on both sides before the file moves', async () => {
    const source = join(rig.scratch.path, 'words', 'note.txt');
    await writeTextFile(source, 'compare the words');
    const destination = join(rig.scratch.path, 'words-received');
    const receiver = accepting();
    let shown: () => PeerCheck | undefined = () => undefined;

    const outcome = await transferPair(
      rig.server.url,
      { paths: [source], iceServers: [] },
      { destination, iceServers: [], onOffer: receiver.onOffer },
      undefined,
      (sender) => (shown = shownBy(sender)),
    );

    expect(outcome.sender.phase).toBe('done');
    expect(outcome.receiver.phase).toBe('done');
    const [offer] = receiver.offers;
    expect(offer.peerCheck).toEqual({
      kind: 'words',
      words: expect.stringMatching(/^[a-z]+ [a-z]+ [a-z]+$/),
    });
    expect(shown()).toEqual(offer.peerCheck);
  });

  it('say "not verified" on both sides when the other peer announces nothing, and the file still moves', async () => {
    const source = join(rig.scratch.path, 'unverified', 'note.txt');
    await writeTextFile(source, 'no words here');
    for (const plain of ['sender', 'receiver'] as const) {
      const destination = join(rig.scratch.path, `unverified-${plain}`);
      const receiver = accepting();
      let shown: () => PeerCheck | undefined = () => undefined;
      const outcome = await transferPair(
        rig.server.url,
        { paths: [source], iceServers: [], extensions: plain !== 'sender' },
        {
          destination,
          iceServers: [],
          onOffer: receiver.onOffer,
          extensions: plain !== 'receiver',
        },
        undefined,
        (sender) => (shown = shownBy(sender)),
      );
      expect(outcome.receiver.phase, plain).toBe('done');
      expect(receiver.offers[0].peerCheck, plain).toEqual({ kind: 'unverified' });
      expect(shown(), plain).toEqual({ kind: 'unverified' });
      expect(await filesUnder(destination)).toEqual(['note.txt']);
    }
  });

  it('refuse a sender whose revealed nonce is not the one it committed to, before anything lands', async () => {
    const source = join(rig.scratch.path, 'cheat', 'note.txt');
    await writeTextFile(source, 'chosen after the fact');
    const destination = join(rig.scratch.path, 'cheat-received');
    const receiver = accepting();
    // The sender reveals another nonce than its commitment names, as a man in the middle
    // choosing its nonce after seeing the receiver's would have to.
    const otherNonce = (frame: Frame): Frame =>
      frame.kind === 'text' && frame.text.includes('"ferry-sas-reveal"')
        ? textFrame(JSON.stringify({ type: 'ferry-sas-reveal', nonce: '0f'.repeat(32) }))
        : frame;

    const outcome = await transferPair(
      rig.server.url,
      { paths: [source], iceServers: [], testSeam: { outgoing: otherNonce } },
      { destination, iceServers: [], onOffer: receiver.onOffer },
    );

    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_SAS_MISMATCH' });
    expect(outcome.receiver.phase === 'failed' && outcome.receiver.message).toContain(
      'someone may be intercepting this connection',
    );
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
    expect(receiver.offers).toEqual([]);
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('send no file data while the sending person takes their time, and none after a "no"', async () => {
    const source = join(rig.scratch.path, 'unconfirmed', 'note.txt');
    await writeTextFile(source, 'not confirmed');
    const destination = join(rig.scratch.path, 'unconfirmed-received');
    const asked: PeerCheck[] = [];
    let dataArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (dataArrived = resolve));

    const outcome = await transferPair(
      rig.server.url,
      {
        paths: [source],
        iceServers: [],
        // The person answers after a while, or the moment a byte reached the receiver (which
        // must not happen): the receiver's ack is long in by then.
        onPeerCheck: async (check) => {
          asked.push(check);
          await Promise.race([arrived, delay(PERSON_THINKS_MS)]);
          return false;
        },
      },
      { destination, iceServers: [] },
      (receiver) =>
        receiver.on('state', (state) => state.phase === 'transferring' && dataArrived()),
    );

    expect(asked).toEqual([{ kind: 'words', words: expect.stringMatching(/^\w+ \w+ \w+$/) }]);
    expect(outcome.sender).toMatchObject({ phase: 'failed', code: 'ERR_NOT_CONFIRMED' });
    expect(outcome.receiver).toMatchObject({ phase: 'failed', code: 'ERR_PEER_ABORTED' });
    expect(await filesUnder(destination)).toEqual([]);
  });
});
