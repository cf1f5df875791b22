import { afterEach, describe, expect, it } from 'vitest';
import { SDP_MAX_MESSAGE_SIZE_BYTES } from '../../src-shared/protocol';
import type { NegotiationSignal } from './negotiation-signal';
import { PeerLink } from './peer-link';

const links: PeerLink[] = [];

afterEach(async () => {
  for (const link of links.splice(0)) link.close(0);
});

function link(role: 'offerer' | 'answerer'): PeerLink {
  const created = new PeerLink({ role, iceServers: [], relayOnly: false });
  links.push(created);
  return created;
}

function opened(peer: PeerLink): Promise<void> {
  return new Promise((resolve) => peer.once('open', resolve));
}

describe('a node-datachannel connection on loopback', () => {
  it('answers with a=max-message-size of 1 GiB, which browsers need before they send large chunks', async () => {
    const offerer = link('offerer');
    const answerer = link('answerer');
    const answer = new Promise<string>((resolve) =>
      answerer.on('signal', (signal) => {
        if (signal.type === 'answer') resolve(signal.sdp);
        offerer.applySignal(signal);
      }),
    );
    offerer.on('signal', (signal) => answerer.applySignal(signal));

    expect(await answer).toContain(`a=max-message-size:${SDP_MAX_MESSAGE_SIZE_BYTES}`);
    await opened(offerer);
    expect(offerer.maxMessageSize()).toBeGreaterThan(0);
  });

  it('connects when candidates arrive before the description they belong to', async () => {
    const offerer = link('offerer');
    const answerer = link('answerer');
    offerer.on('signal', (signal) => answerer.applySignal(signal));
    // The answer is held back until a candidate has gone ahead of it, as trickle ICE may do;
    // node-datachannel itself would throw on such a candidate.
    let answer: NegotiationSignal | undefined;
    let candidatesAhead = 0;
    answerer.on('signal', (signal) => {
      if (signal.type === 'answer') answer = signal;
      else {
        offerer.applySignal(signal);
        candidatesAhead += 1;
      }
      if (answer !== undefined && candidatesAhead > 0) {
        offerer.applySignal(answer);
        answer = undefined;
      }
    });

    await Promise.all([opened(offerer), opened(answerer)]);
    expect(candidatesAhead).toBeGreaterThan(0);
    expect(offerer.route()).toMatchObject({ relayed: false });
  });

  it('carries frames in order and reports a close by the other side, after the last frame', async () => {
    const offerer = link('offerer');
    const answerer = link('answerer');
    offerer.on('signal', (signal) => answerer.applySignal(signal));
    answerer.on('signal', (signal) => offerer.applySignal(signal));
    await Promise.all([opened(offerer), opened(answerer)]);
    const seen: string[] = [];
    answerer.on('frame', (frame) =>
      seen.push(frame.kind === 'text' ? frame.text : `${frame.bytes.byteLength} bytes`),
    );
    const closed = new Promise<void>((resolve) => answerer.once('closed', () => resolve()));

    offerer.send({ kind: 'text', text: 'first' });
    offerer.send({ kind: 'binary', bytes: new Uint8Array(256 * 1024) });
    offerer.send({ kind: 'text', text: 'last' });
    offerer.close(1000);
    await closed;
    answerer.close(0);

    expect(seen).toEqual(['first', '262144 bytes', 'last']);
    await Promise.all([offerer.released, answerer.released]);
  });
});
