import { afterEach, describe, expect, it } from 'vitest';
import {
  binaryFrame,
  SEND_BUFFER_HIGH_WATER_BYTES,
  textFrame,
  type Frame,
} from '../../src-shared/protocol';
import { connectPeer, type ConnectResult } from '../../src-shared/session/connect-peer';
import { LaneSender } from '../../src-shared/session/lanes/lane-sender';
import { LaneReceiver } from '../../src-shared/session/lanes/lane-receiver';
import {
  laneSignalFrame,
  readLaneMessage,
  stripeFrame,
} from '../../src-shared/session/lanes/lane-messages';
import { LANE_CHANNEL } from '../../src-shared/session/lanes/lane-connection';
import { isProbe, isProbeAnswer } from '../../src-shared/session/lanes/lane-probe';
import { laneMarker } from '../../src-shared/session/lanes/lane-reorder';
import type {
  ChannelHandlers,
  ChannelPort,
  Clock,
  NegotiatedChannel,
  PeerConnectionPort,
} from '../../src-shared/session/ports';
import {
  LANE_MIN_BATCH_BYTES,
  LANE_PROBE_MTU,
  LANE_PROBE_TIMEOUT_MIN_MS,
  LANE_SETUP_TIMEOUT_MS,
} from '../../src-shared/session/session-limits';
import { ManualClock } from '../../src-shared/session/testing/manual-clock';
import { signalingPair } from '../../src-shared/session/testing/signaling-pair';
import { nodeClock } from './node-clock';
import { PeerLink } from './peer-link';
import { HeldLane } from './test-support/held-lane';
import { countingPeers, offerLaneRegardless } from './test-support/lane-offer';
import { rawLaneAnswerer } from './test-support/raw-lane-answerer';

const links: PeerLink[] = [];

const answerers: { close(): void }[] = [];

afterEach(() => {
  for (const link of links.splice(0)) link.close(0);
  for (const answerer of answerers.splice(0)) answerer.close();
});

const TIMEOUTS = {
  offerAnswer: 5000,
  connect: 6000,
  attempt: 3000,
  channelGrace: 3000,
  peerJoin: 5000,
};

const LANES = 4;
/** Loopback has no round trip to speak of: these tests open lanes regardless. */
const LANE_OPTIONS = { createPeer, count: LANES, minRoundTripMs: 0, agreed: () => true };
const FRAME_BYTES = 64 * 1024;
/** A batch worth lanes: large enough, on a direct route. */
const BATCH = { bytes: LANE_MIN_BATCH_BYTES, relayed: false };

function createPeer(role: 'offerer' | 'answerer', negotiated?: NegotiatedChannel): PeerLink {
  const link = new PeerLink({
    role,
    iceServers: [],
    relayOnly: false,
    ...(negotiated && { negotiated }),
  });
  links.push(link);
  return link;
}

function channelOf(result: ConnectResult): ChannelPort {
  if (!result.ok) throw new Error(`${result.failure.code}: ${result.failure.message}`);
  return result.channel;
}

/** The first connection between two node-datachannel peers, as the session core makes it. */
async function firstConnection(): Promise<[ChannelPort, ChannelPort]> {
  const room = signalingPair();
  const common = { createPeer, clock: nodeClock, timeouts: TIMEOUTS };
  const sender = connectPeer({ ...common, signaling: room.sender }).result;
  const receiver = connectPeer({ ...common, signaling: room.receiver }).result;
  room.join();
  return [channelOf(await sender), channelOf(await receiver)];
}

/** Frame `index`: text or binary by turns, its index readable from either. */
function numbered(index: number): Frame {
  if (index % 3 === 0) return textFrame(JSON.stringify({ type: 'note', index }));
  const bytes = new Uint8Array(FRAME_BYTES);
  new DataView(bytes.buffer).setUint32(0, index);
  return binaryFrame(bytes);
}

function indexOf(frame: Frame): number {
  if (frame.kind === 'text') return (JSON.parse(frame.text) as { index: number }).index;
  return new DataView(frame.bytes.buffer, frame.bytes.byteOffset).getUint32(0);
}

/** Resolves once the sender's bond stripes over more than its first connection. */
async function striped(bond: LaneSender): Promise<void> {
  while (bond.width === 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('lanes: one ordered channel over several node-datachannel connections', () => {
  it('stripes over four connections opened through the first, and the receiver gets every frame in order', async () => {
    const [out, into] = await firstConnection();
    const sender = new LaneSender(out, LANE_OPTIONS, nodeClock);
    const receiver = new LaneReceiver(into, LANE_OPTIONS, nodeClock);
    const total = 2000;
    const seen: number[] = [];
    const all = new Promise<void>((resolve) =>
      receiver.listen({
        frame: (frame) => {
          seen.push(indexOf(frame));
          if (seen.length === total) resolve();
        },
      }),
    );
    // Frames sent before the lanes open go on the first connection, and keep their place.
    let sent = 0;
    while (sent < 20) expect(sender.send(numbered(sent++))).toBe(true);
    sender.widen(BATCH);
    await striped(sender);
    // The receiver's own frames stay on the first connection, in order, and cost no turn.
    const answers: number[] = [];
    const answered = new Promise<void>((resolve) =>
      sender.listen({
        frame: (frame) => {
          answers.push(indexOf(frame));
          if (answers.length === 10) resolve();
        },
      }),
    );
    for (let answer = 0; answer < 10; answer += 1) receiver.send(numbered(answer * 3));
    while (sent < total) expect(sender.send(numbered(sent++))).toBe(true);
    await Promise.all([all, answered]);
    expect(answers).toEqual(Array.from({ length: 10 }, (_, index) => index * 3));

    expect(sender.width).toBe(LANES);
    expect(seen).toEqual(Array.from({ length: total }, (_, index) => index));
  });

  it("holds the sender's data while its lanes open, and lets it go on the first connection when none answers in time", async () => {
    const [out, into] = await firstConnection();
    const clock = new ManualClock();
    const sender = new LaneSender(out, LANE_OPTIONS, clock);
    // The other end has no bond: its lane offers go unanswered.
    const seen: number[] = [];
    const arrived = new Promise<void>((resolve) =>
      into.listen({
        frame: (frame) => {
          if (frame.kind === 'text' && frame.text.includes('"ferry-lane"')) return;
          seen.push(indexOf(frame));
          if (seen.length === 3) resolve();
        },
      }),
    );

    sender.widen(BATCH);
    // Data queued now on the ordered first connection would hold back all the lanes carry.
    expect(sender.bufferedAmount()).toBeGreaterThan(SEND_BUFFER_HIGH_WATER_BYTES);

    clock.advance(LANE_SETUP_TIMEOUT_MS);
    expect(sender.width).toBe(1);
    expect(sender.bufferedAmount()).toBeLessThan(SEND_BUFFER_HIGH_WATER_BYTES);
    for (let sent = 0; sent < 3; sent += 1) sender.send(numbered(sent));
    await arrived;
    expect(seen).toEqual([0, 1, 2]);
  });

  it("opens each lane's channel out of band: a receiver that creates it itself gets the frames, and none is announced", async () => {
    const [out, into] = await firstConnection();
    const sender = new LaneSender(out, { ...LANE_OPTIONS, count: 2 }, nodeClock);
    // The receiving end of lane 1 as docs/protocol.md describes it, without Ferry's engine.
    const lane = rawLaneAnswerer(into, 1);
    answerers.push(lane);

    sender.widen(BATCH);
    await striped(sender);
    // Frames go by turns to idle lanes: the second frame is lane 1's, behind its marker.
    for (let sent = 0; sent < 2; sent += 1) expect(sender.send(numbered(sent))).toBe(true);

    expect([...(await lane.firstMessage)]).toEqual([...laneMarker(1)]);
    expect(lane.announced).toEqual([]);
  });

  // docs/protocol.md, "Lanes": each answered lane is a connection gathering with this side's ICE
  // list, so a receiver answers only a sender that agreed lanes.
  it.each([
    [false, 0],
    [true, 1],
  ])(
    'a receiver with lanes agreed %s makes %i connection for a lane offer',
    async (agreed, count) => {
      const [out, into] = await firstConnection();
      const peers = countingPeers(createPeer);
      const receiver = new LaneReceiver(
        into,
        { ...LANE_OPTIONS, createPeer: peers.createPeer, agreed: () => agreed },
        nodeClock,
      );

      await offerLaneRegardless(out, receiver, createPeer('offerer', LANE_CHANNEL));

      expect(peers.made()).toBe(count);
    },
  );

  it('ends the link when a sender stripes over a lane the receiver never answered', async () => {
    const [out, into] = await firstConnection();
    const receiver = new LaneReceiver(into, LANE_OPTIONS, nodeClock);
    const closed = new Promise<string>((resolve) => receiver.listen({ closed: resolve }));

    out.send(stripeFrame([2]));

    expect(await closed).toBe('the sender striped over lane 2, which it never opened');
    expect(receiver.isClosed).toBe(true);
  });

  it('keeps to the first connection over a path shorter than the lanes need, and says so to nobody', async () => {
    const [out, into] = await firstConnection();
    const options = { ...LANE_OPTIONS, minRoundTripMs: 1000 };
    const sender = new LaneSender(out, options, nodeClock);
    const receiver = new LaneReceiver(into, options, nodeClock);
    const seen: number[] = [];
    const all = new Promise<void>((resolve) =>
      receiver.listen({
        frame: (frame) => {
          seen.push(indexOf(frame));
          if (seen.length === 50) resolve();
        },
      }),
    );
    for (let sent = 0; sent < 25; sent += 1) sender.send(numbered(sent));
    sender.widen(BATCH);
    for (let sent = 25; sent < 50; sent += 1) sender.send(numbered(sent));
    await all;

    expect(sender.width).toBe(1);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, index) => index));
  });
});

/**
 * A sender's bond whose second lane opens only when the test releases it, and a receiver's bond;
 * the receiver's reports of bytes arrived per lane, as the sender heard them.
 */
/** Every `ferry-lane-ack` the receiver sends on `out`: bytes arrived per lane, in stripe order. */
function laneReports(out: ChannelPort): number[][] {
  const reports: number[][] = [];
  out.listen({
    frame: (frame) => {
      const message = readLaneMessage(frame);
      if (typeof message === 'object' && message.type === 'ferry-lane-ack') {
        reports.push(message.received);
      }
    },
  });
  return reports;
}

async function bondsWithHeldLane(clock: Clock) {
  const [out, into] = await firstConnection();
  let made = 0;
  let held: HeldLane | undefined;
  const createHeld = (role: 'offerer' | 'answerer', negotiated?: NegotiatedChannel) => {
    made += 1;
    const peer = createPeer(role, negotiated);
    if (made !== 2) return peer;
    held = new HeldLane(peer);
    return held.port;
  };
  const sender = new LaneSender(out, { ...LANE_OPTIONS, createPeer: createHeld }, clock);
  const receiver = new LaneReceiver(into, LANE_OPTIONS, nodeClock);
  const reports = laneReports(out);
  sender.widen(BATCH);
  await striped(sender);
  if (held === undefined) throw new Error('no second lane was made');
  return { sender, receiver, held, reports };
}

/** Sends frames `from` to `to` − 1 and resolves once the receiver was handed all of them. */
async function carry(sender: LaneSender, receiver: LaneReceiver, from: number, to: number) {
  const seen: number[] = [];
  const all = new Promise<void>((resolve) => {
    const unlisten = receiver.listen({
      frame: (frame) => {
        seen.push(indexOf(frame));
        if (seen.length === to - from) {
          unlisten();
          resolve();
        }
      },
    });
  });
  for (let sent = from; sent < to; sent += 1) expect(sender.send(numbered(sent))).toBe(true);
  await all;
  return seen;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => from + index);

describe('lanes that open after the stripe', () => {
  it('stripes as its first lane opens, listing a lane still opening, which takes frames once it opens', async () => {
    const { sender, receiver, held, reports } = await bondsWithHeldLane(nodeClock);
    // Striped while lane 2 is held: listed, but given nothing yet.
    expect(sender.width).toBe(LANES);
    expect(await carry(sender, receiver, 0, 200)).toEqual(range(0, 200));
    expect(reports.at(-1)?.[2]).toBe(0);

    await held.release();
    expect(await carry(sender, receiver, 200, 400)).toEqual(range(200, 400));
    expect(reports.at(-1)?.[2]).toBeGreaterThan(0);
  });

  it('goes on over the other lanes when a listed lane fails before it opened', async () => {
    const { sender, receiver, held } = await bondsWithHeldLane(nodeClock);
    held.fail('ICE failed');

    expect(sender.isClosed).toBe(false);
    expect(await carry(sender, receiver, 0, 200)).toEqual(range(0, 200));
  });

  it('lets go of a listed lane still not open at the setup deadline', async () => {
    const clock = new ManualClock();
    const { sender, receiver, held } = await bondsWithHeldLane(clock);
    expect(held.closed).toBe(false);

    clock.advance(LANE_SETUP_TIMEOUT_MS);
    expect(held.closed).toBe(true);
    expect(await carry(sender, receiver, 0, 200)).toEqual(range(0, 200));
  });
});

/** A lane that sends packets sized for a LANE_PROBE_MTU path, as the engine makes it. */
function createProbingPeer(role: 'offerer' | 'answerer', negotiated?: NegotiatedChannel): PeerLink {
  const link = new PeerLink({
    role,
    iceServers: [],
    relayOnly: false,
    mtu: LANE_PROBE_MTU,
    ...(negotiated && { negotiated }),
  });
  links.push(link);
  return link;
}

const PROBING_OPTIONS = { ...LANE_OPTIONS, createProbingPeer };

/** `channel`, recording every lane offer sent on it: its lane, and whether it said `probe`. */
function recordingOffers(channel: ChannelPort): {
  channel: ChannelPort;
  offers: { lane: number; probe: boolean }[];
} {
  const offers: { lane: number; probe: boolean }[] = [];
  const recording = new Proxy(channel, {
    get(target, property) {
      if (property === 'send') {
        return (frame: Frame) => {
          const message = readLaneMessage(frame);
          if (typeof message === 'object' && message.type === 'ferry-lane') {
            if (message.signal.type === 'offer') {
              offers.push({ lane: message.lane, probe: message.probe === true });
            }
          }
          return target.send(frame);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { channel: recording, offers };
}

/**
 * A lane whose messages that `picks` chooses go to `onPicked` instead of the bond, with the
 * function that hands each on; every other message reaches the bond as usual. A receiver's probe
 * never handed on is a path that drops packets of LANE_PROBE_MTU; one handed on later, a slow one.
 */
function intercepting(
  link: PeerConnectionPort,
  picks: (frame: Frame) => boolean,
  onPicked: (handOn: () => void) => void,
): PeerConnectionPort {
  return {
    listen: (handlers) =>
      link.listen({
        ...handlers,
        open: (channel) =>
          handlers.open?.(
            new Proxy(channel, {
              get(target, property) {
                if (property === 'listen') {
                  return (channelHandlers: ChannelHandlers) =>
                    target.listen({
                      ...channelHandlers,
                      frame: (frame) => {
                        if (picks(frame)) onPicked(() => channelHandlers.frame?.(frame));
                        else channelHandlers.frame?.(frame);
                      },
                    });
                }
                const value: unknown = Reflect.get(target, property);
                return typeof value === 'function' ? value.bind(target) : value;
              },
            }),
          ),
      }),
    setRemoteDescription: (description) => link.setRemoteDescription(description),
    addRemoteCandidate: (candidate) => link.addRemoteCandidate(candidate),
    close: () => link.close(),
  };
}

/** Receiver lanes over a path that drops packets of LANE_PROBE_MTU. */
function swallowingProbes(role: 'offerer' | 'answerer', negotiated?: NegotiatedChannel) {
  return intercepting(createPeer(role, negotiated), isProbe, () => undefined);
}

const PROBE_BATCH = { ...BATCH, probe: true };
const eachLane = (probe: boolean) => range(1, LANES).map((lane) => ({ lane, probe }));

describe('lanes that probe their path for larger packets (lane-mtu)', () => {
  it('offers each lane with a probe and stripes once one is answered; every frame arrives in order', async () => {
    const [out, into] = await firstConnection();
    const { channel, offers } = recordingOffers(out);
    const sender = new LaneSender(channel, PROBING_OPTIONS, nodeClock);
    const receiver = new LaneReceiver(into, LANE_OPTIONS, nodeClock);
    sender.widen(PROBE_BATCH);
    await striped(sender);

    expect(await carry(sender, receiver, 0, 300)).toEqual(range(0, 300));
    expect(sender.width).toBe(LANES);
    expect(offers.sort((a, b) => a.lane - b.lane)).toEqual(eachLane(true));
  });

  it('offers every lane again without a probe when no probe is answered, and every frame still arrives in order', async () => {
    const [out, into] = await firstConnection();
    const { channel, offers } = recordingOffers(out);
    const sender = new LaneSender(channel, PROBING_OPTIONS, nodeClock);
    const receiver = new LaneReceiver(
      into,
      { ...LANE_OPTIONS, createPeer: swallowingProbes },
      nodeClock,
    );
    sender.widen(PROBE_BATCH);
    await striped(sender);

    expect(await carry(sender, receiver, 0, 300)).toEqual(range(0, 300));
    expect(sender.width).toBe(LANES);
    const [first, again] = [offers.slice(0, LANES - 1), offers.slice(LANES - 1)];
    expect(first.sort((a, b) => a.lane - b.lane)).toEqual(eachLane(true));
    expect(again.sort((a, b) => a.lane - b.lane)).toEqual(eachLane(false));
  });

  it('waits on for a late answer once another lane was answered, and then gives that lane frames', async () => {
    const clock = new ManualClock();
    const [out, into] = await firstConnection();
    const { channel, offers } = recordingOffers(out);
    // The first lane the receiver makes gets its probe only when told.
    let made = 0;
    let handOn: (() => void) | undefined;
    let probeArrived = (): void => undefined;
    const probeHeld = new Promise<void>((resolve) => (probeArrived = resolve));
    const createDelaying = (role: 'offerer' | 'answerer', negotiated?: NegotiatedChannel) => {
      made += 1;
      const link = createPeer(role, negotiated);
      if (made !== 1) return link;
      return intercepting(link, isProbe, (later) => {
        handOn = later;
        probeArrived();
      });
    };
    const receiver = new LaneReceiver(
      into,
      { ...LANE_OPTIONS, createPeer: createDelaying },
      nodeClock,
    );
    // The sender's lanes, which say when the bond has taken every lane's answer.
    let answers = 0;
    let allAnswered = (): void => undefined;
    const everyAnswer = new Promise<void>((resolve) => (allAnswered = resolve));
    const createCounting = (role: 'offerer' | 'answerer', negotiated?: NegotiatedChannel) =>
      intercepting(createProbingPeer(role, negotiated), isProbeAnswer, (now) => {
        now();
        answers += 1;
        if (answers === LANES - 1) allAnswered();
      });
    const reports = laneReports(out);
    const sender = new LaneSender(
      channel,
      { ...PROBING_OPTIONS, createProbingPeer: createCounting },
      clock,
    );
    sender.widen(PROBE_BATCH);
    await striped(sender);
    await probeHeld;

    // The held probe is overdue, but the others' were answered: no new offers, its lane waits.
    clock.advance(LANE_PROBE_TIMEOUT_MIN_MS);
    expect(offers).toHaveLength(LANES - 1);
    handOn?.();
    await everyAnswer;
    expect(await carry(sender, receiver, 0, 400)).toEqual(range(0, 400));
    // Whichever lane was held, every lane carried some of them.
    expect(Math.min(...(reports.at(-1) ?? [0]))).toBeGreaterThan(0);
  });

  it('ends the link when a probing lane does not begin with its probe', async () => {
    const [out, into] = await firstConnection();
    // A sender whose offers say `probe` but whose lanes send frames straight away.
    const saysProbe = new Proxy(out, {
      get(target, property) {
        if (property === 'send') {
          return (frame: Frame) => {
            const message = readLaneMessage(frame);
            if (typeof message !== 'object' || message.type !== 'ferry-lane')
              return target.send(frame);
            return target.send(laneSignalFrame(message.lane, message.signal, true));
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const sender = new LaneSender(saysProbe, LANE_OPTIONS, nodeClock);
    const receiver = new LaneReceiver(into, LANE_OPTIONS, nodeClock);
    const closed = new Promise<string>((resolve) => receiver.listen({ closed: resolve }));
    sender.widen(BATCH);
    await striped(sender);
    for (let sent = 0; sent < 50; sent += 1) sender.send(numbered(sent));

    expect(await closed).toMatch(/did not begin with its probe/);
  });
});
