import { afterEach, describe, expect, it } from 'vitest';
import { SDP_MAX_MESSAGE_SIZE_BYTES } from '../../src-shared/protocol';
import { connectPeer, type ConnectResult } from '../../src-shared/session/connect-peer';
import type { ChannelPort } from '../../src-shared/session/ports';
import { signalingPair, type SignalFilter } from '../../src-shared/session/testing/signaling-pair';
import { nodeClock } from './node-clock';
import { PeerLink } from './peer-link';

const links: PeerLink[] = [];

afterEach(async () => {
  for (const link of links.splice(0)) link.close(0);
});

const TIMEOUTS = {
  offerAnswer: 5000,
  connect: 6000,
  attempt: 1500,
  channelGrace: 1500,
  peerJoin: 5000,
};

/** Both ends of one connection over node-datachannel, negotiated by the session core. */
function connectBoth(
  filter?: SignalFilter,
  timeouts = TIMEOUTS,
): { sender: Promise<ConnectResult>; receiver: Promise<ConnectResult>; retries: number[] } {
  const room = signalingPair(filter);
  const retries: number[] = [];
  const createPeer = (role: 'offerer' | 'answerer') => {
    const link = new PeerLink({ role, iceServers: [], relayOnly: false });
    links.push(link);
    return link;
  };
  const common = { createPeer, clock: nodeClock, timeouts };
  const sender = connectPeer({
    ...common,
    signaling: room.sender,
    onRetry: (attempt) => retries.push(attempt),
  }).result;
  const receiver = connectPeer({ ...common, signaling: room.receiver }).result;
  room.join();
  return { sender, receiver, retries };
}

function channelOf(result: ConnectResult): ChannelPort {
  if (!result.ok) throw new Error(`${result.failure.code}: ${result.failure.message}`);
  return result.channel;
}

const isCandidate = (payload: unknown): boolean =>
  typeof payload === 'object' && payload !== null && 'candidate' in payload;

const attemptOf = (payload: unknown): unknown =>
  typeof payload === 'object' && payload !== null && 'attempt' in payload
    ? payload.attempt
    : undefined;

describe('the session core connecting two node-datachannel peers', () => {
  it('answers with a=max-message-size of 1 GiB, which browsers need before they send large chunks', async () => {
    let answer = '';
    const { sender, receiver } = connectBoth((payload) => {
      const sdp = (payload as { type?: unknown; sdp?: unknown }).sdp;
      if ((payload as { type?: unknown }).type === 'answer' && typeof sdp === 'string') {
        answer = sdp;
      }
      return true;
    });
    const [out, into] = [channelOf(await sender), channelOf(await receiver)];

    expect(answer).toContain(`a=max-message-size:${SDP_MAX_MESSAGE_SIZE_BYTES}`);
    expect(out.maxMessageSize()).toBeGreaterThan(0);
    expect(into.isClosed).toBe(false);
  });

  it('carries frames in order and reports a close by the other side after the last frame', async () => {
    const { sender, receiver } = connectBoth();
    const [out, into] = [channelOf(await sender), channelOf(await receiver)];
    const seen: string[] = [];
    const closed = new Promise<void>((resolve) =>
      into.listen({
        frame: (frame) =>
          seen.push(frame.kind === 'text' ? frame.text : `${frame.bytes.byteLength} bytes`),
        closed: () => resolve(),
      }),
    );

    out.send({ kind: 'text', text: 'first' });
    out.send({ kind: 'binary', bytes: new Uint8Array(256 * 1024) });
    out.send({ kind: 'text', text: 'last' });
    out.close(1000);
    await closed;
    into.close(0);

    expect(seen).toEqual(['first', '262144 bytes', 'last']);
    await Promise.all([out.released, into.released]);
  });

  it('loses no signal that arrives before the receiver listens: the sender offers at once', async () => {
    let forwarded = 0;
    let offerOut!: () => void;
    const waiting = new Promise<void>((resolve) => (offerOut = resolve));
    const room = signalingPair(() => {
      forwarded += 1;
      // The payload is posted before this resolves, so it is in the inbox when the test goes on.
      if (forwarded === 1) offerOut();
      return true;
    });
    const createPeer = (role: 'offerer' | 'answerer') => {
      const link = new PeerLink({ role, iceServers: [], relayOnly: false });
      links.push(link);
      return link;
    };
    const common = { createPeer, clock: nodeClock, timeouts: TIMEOUTS };
    const retries: number[] = [];
    const sender = connectPeer({
      ...common,
      signaling: room.sender,
      onRetry: (attempt) => retries.push(attempt),
    }).result;
    room.join();
    // The receiver's seat holds the offer before anyone listens to it.
    await waiting;
    const receiver = connectPeer({ ...common, signaling: room.receiver }).result;

    expect(channelOf(await receiver).isClosed).toBe(false);
    expect(channelOf(await sender).isClosed).toBe(false);
    // The first attempt did it: a lost offer would only have worked through a retry.
    expect(retries).toEqual([]);
  });

  it('opens even when the other peer leaves the room the moment its own channel opens', async () => {
    const room = signalingPair();
    const createPeer = (role: 'offerer' | 'answerer') => {
      const link = new PeerLink({ role, iceServers: [], relayOnly: false });
      links.push(link);
      return link;
    };
    const common = { createPeer, clock: nodeClock, timeouts: TIMEOUTS };
    const sender = connectPeer({ ...common, signaling: room.sender }).result;
    const receiver = connectPeer({ ...common, signaling: room.receiver }).result;
    void sender.then(() => room.sender.close());
    void receiver.then(() => room.receiver.close());
    room.join();

    expect(channelOf(await sender).isClosed).toBe(false);
    expect(channelOf(await receiver).isClosed).toBe(false);
  });

  it('retries a failed first attempt and connects on the second', async () => {
    // Attempt 1 loses every candidate, so no route can form; attempt 2 is left alone.
    const { sender, receiver, retries } = connectBoth(
      (payload) => !(isCandidate(payload) && attemptOf(payload) === 1),
    );

    const [out, into] = [channelOf(await sender), channelOf(await receiver)];

    expect(retries).toEqual([2]);
    expect(out.isClosed || into.isClosed).toBe(false);
  });

  it('ends with "no route" when no attempt finds one', async () => {
    const { sender, receiver, retries } = connectBoth((payload) => !isCandidate(payload), {
      ...TIMEOUTS,
      connect: 2500,
      attempt: 1000,
    });

    const [out, into] = [await sender, await receiver];

    expect(out).toMatchObject({ ok: false, failure: { code: 'ERR_NO_ROUTE' } });
    expect(into).toMatchObject({ ok: false, failure: { code: 'ERR_NO_ROUTE' } });
    expect(!out.ok && out.failure.message).toMatch(/same network, or use a relay/);
    expect(retries.length).toBeGreaterThan(0);
  });
});
