import { describe, expect, it } from 'vitest';
import { binaryFrame, textFrame, type Frame } from '../../protocol/frame';
import { SDP_MAX_MESSAGE_SIZE_BYTES, SEND_BUFFER_HIGH_WATER_BYTES } from '../../protocol/limits';
import {
  LANE_MIN_BATCH_BYTES,
  LANE_PROBE_BYTES,
  LANE_PROBE_TIMEOUT_MIN_MS,
  LANE_SETUP_TIMEOUT_MS,
} from '../session-limits';
import { ManualClock } from '../testing/manual-clock';
import { MemoryChannel, MemoryNetwork, type PathConditions } from '../testing/memory-network';
import { readLaneMessage, type LaneMessage } from './lane-messages';
import type { LaneOptions } from './lane-options';
import { LaneReceiver } from './lane-receiver';
import { LaneSender } from './lane-sender';

// The lanes extension (docs/protocol.md, "Lanes") over in-memory connections on a clock the test
// moves: the schedule, the reorder, the probe's fallback and the setup deadline, in milliseconds.

const LANES = 4;
const FRAME_BYTES = 16 * 1024;
/** One step of the clock: every timer due in it fires, then every promise settles. */
const STEP_MS = 1;
/** Far longer than any of these transfers takes on the test's clock. */
const GIVE_UP_MS = 20_000;
/** Long enough for the late probe's answer to arrive. */
const LATE_ANSWER_MS = 1000;
/** Longer than any path's round trip here. */
const REPORTS_IN_FLIGHT_MS = 100;
/** A lane's path unless a test says otherwise: about 2 MB/s each. */
const PATH: PathConditions = { delayMs: 10, bytesPerMs: 2000 };
const BATCH = { bytes: LANE_MIN_BATCH_BYTES, relayed: false };
const PROBE_BATCH = { ...BATCH, probe: true };

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

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

const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => from + index);

/** Every lane message that arrives on `channel`. */
function laneMessages(channel: MemoryChannel): LaneMessage[] {
  const messages: LaneMessage[] = [];
  channel.listen({
    frame: (frame) => {
      const message = readLaneMessage(frame);
      if (typeof message === 'object') messages.push(message);
    },
  });
  return messages;
}

interface Setup {
  /** The first connection's path. */
  first?: PathConditions;
  /** Each lane's path, by the order its offerer was made (1, 2, …), and whether it probes. */
  lane?: (index: number, probing: boolean) => PathConditions;
}

/** A sender and a receiver joined by a first connection, making their lanes on one network. */
function lanesOver({ first = PATH, lane = () => PATH }: Setup) {
  const clock = new ManualClock();
  const network = new MemoryNetwork(clock, lane);
  const [out, into] = MemoryChannel.pair(clock, first);
  const options: LaneOptions = { createPeer: network.peers(), count: LANES, minRoundTripMs: 0 };
  const sender = new LaneSender(
    out,
    { ...options, createProbingPeer: network.peers({ probing: true }) },
    clock,
  );
  const receiver = new LaneReceiver(into, { ...options, agreed: () => true }, clock);
  const atSender = laneMessages(out);
  const atReceiver = laneMessages(into);
  const seen: number[] = [];
  receiver.listen({ frame: (frame) => seen.push(indexOf(frame)) });

  /** Moves the clock by `ms`, a step at a time, letting every promise settle after each. */
  async function run(ms: number): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += STEP_MS) {
      clock.advance(STEP_MS);
      await settle();
    }
  }

  /** Runs until `done`, failing the test when the clock passes GIVE_UP_MS first. */
  async function runUntil(done: () => boolean): Promise<void> {
    const end = clock.now() + GIVE_UP_MS;
    while (!done()) {
      if (clock.now() >= end) throw new Error(`not done by ${GIVE_UP_MS} ms`);
      await run(STEP_MS);
    }
  }

  /**
   * Sends frames `from` to `to` − 1 as the session does, whenever the buffer is below its high
   * water, and runs until the receiver was handed all of them.
   */
  async function carry(from: number, to: number): Promise<number[]> {
    const before = seen.length;
    let next = from;
    await runUntil(() => {
      while (next < to && sender.bufferedAmount() < SEND_BUFFER_HIGH_WATER_BYTES) {
        expect(sender.send(numbered(next))).toBe(true);
        next += 1;
      }
      return seen.length - before >= to - from;
    });
    // The receiver's last reports are still on their way.
    await run(REPORTS_IN_FLIGHT_MS);
    return seen.slice(before);
  }

  /** The receiver's latest report: bytes arrived per lane, in stripe order. */
  const arrived = (): readonly number[] => {
    const acks = atSender.filter((message) => message.type === 'ferry-lane-ack');
    return acks.at(-1)?.received ?? [];
  };

  return {
    clock,
    network,
    sender,
    receiver,
    atSender,
    atReceiver,
    run,
    runUntil,
    carry,
    arrived,
    seen,
  };
}

describe('lanes over in-memory connections', () => {
  it('stripes over four connections, and the receiver hands every frame on in order though lanes differ in delay and one loses packets', async () => {
    const paths: PathConditions[] = [
      { delayMs: 10, bytesPerMs: 4000 },
      { delayMs: 40, bytesPerMs: 4000 },
      { delayMs: 10, bytesPerMs: 4000, lossEvery: 5, retransmitMs: 300 },
    ];
    const bonds = lanesOver({ lane: (index) => paths[index - 1] ?? {} });
    bonds.sender.widen(BATCH);
    await bonds.runUntil(() => bonds.sender.width === LANES);

    expect(await bonds.carry(0, 600)).toEqual(range(0, 600));
    const [first, slow, , lossy] = bonds.arrived();
    // Every lane carried a share; the lossy one, always waiting on a retransmission, the least.
    expect(Math.min(first, slow, lossy)).toBeGreaterThan(0);
    expect(lossy).toBeLessThan(Math.min(first, slow));
  });

  it('stripes as its first lane opens, listing a late lane that takes frames once it opens', async () => {
    const bonds = lanesOver({
      lane: (index) => (index === 2 ? { ...PATH, openAfterMs: 1500 } : PATH),
    });
    bonds.sender.widen(BATCH);
    await bonds.runUntil(() => bonds.sender.width === LANES);
    expect(bonds.network.connections[1]?.open).toBe(false);

    expect(await bonds.carry(0, 200)).toEqual(range(0, 200));
    expect(bonds.arrived()[2]).toBe(0);
    await bonds.runUntil(() => bonds.network.connections[1]?.open === true);
    expect(await bonds.carry(200, 400)).toEqual(range(200, 400));
    expect(bonds.arrived()[2]).toBeGreaterThan(0);
  });

  it('keeps the frames lanes bring before the stripe, which comes late over a longer first connection', async () => {
    const bonds = lanesOver({
      first: { ...PATH, delayMs: 150 },
      lane: () => ({ ...PATH, delayMs: 5 }),
    });
    bonds.sender.widen(BATCH);
    await bonds.runUntil(() => bonds.sender.width === LANES);
    // Sent at once, these reach the receiver on the lanes long before the stripe does.
    for (let sent = 0; sent < 30; sent += 1) bonds.sender.send(numbered(sent));
    await bonds.run(100);
    expect(bonds.atReceiver.some((message) => message.type === 'ferry-stripe')).toBe(false);

    await bonds.carry(30, 200);
    expect(bonds.seen).toEqual(range(0, 200));
  });

  it('lets go of a lane still not open at the setup deadline, and the others carry everything', async () => {
    const bonds = lanesOver({
      lane: (index) => (index === 3 ? { neverOpens: true } : PATH),
    });
    bonds.sender.widen(BATCH);
    await bonds.runUntil(() => bonds.sender.width === LANES);
    expect(await bonds.carry(0, 100)).toEqual(range(0, 100));
    expect(bonds.network.connections[2]?.closed).toBe(false);

    await bonds.run(LANE_SETUP_TIMEOUT_MS);
    expect(bonds.network.connections[2]?.closed).toBe(true);
    expect(await bonds.carry(100, 300)).toEqual(range(100, 300));
    expect(bonds.receiver.isClosed).toBe(false);
  });

  it("holds the sender's data while no lane opens, and lets it go on the first connection at the setup deadline", async () => {
    const bonds = lanesOver({ lane: () => ({ neverOpens: true }) });
    bonds.sender.widen(BATCH);
    await bonds.run(LANE_SETUP_TIMEOUT_MS - STEP_MS);
    // Data queued now on the ordered first connection would hold back all the lanes carry.
    expect(bonds.sender.bufferedAmount()).toBeGreaterThan(SEND_BUFFER_HIGH_WATER_BYTES);

    await bonds.run(STEP_MS);
    expect(bonds.sender.bufferedAmount()).toBeLessThan(SEND_BUFFER_HIGH_WATER_BYTES);
    expect(await bonds.carry(0, 100)).toEqual(range(0, 100));
    expect(bonds.sender.width).toBe(1);
    expect(bonds.network.connections.every((lane) => lane.closed)).toBe(true);
  });

  it('offers every lane again without a probe when the path drops the probe, and stripes over them', async () => {
    const bonds = lanesOver({
      lane: (_, probing) => ({
        delayMs: 10,
        ...(probing && { dropAboveBytes: LANE_PROBE_BYTES - 1 }),
      }),
    });
    bonds.sender.widen(PROBE_BATCH);
    await bonds.run(LANE_PROBE_TIMEOUT_MIN_MS - STEP_MS);
    expect(bonds.sender.width).toBe(1);

    await bonds.runUntil(() => bonds.sender.width === LANES);
    const offers = bonds.atReceiver.flatMap((message) =>
      message.type === 'ferry-lane' && message.signal.type === 'offer'
        ? [{ lane: message.lane, probe: message.probe === true }]
        : [],
    );
    const eachLane = (probe: boolean) => range(1, LANES).map((lane) => ({ lane, probe }));
    expect(offers).toEqual([...eachLane(true), ...eachLane(false)]);
    expect(await bonds.carry(0, 300)).toEqual(range(0, 300));
    expect(bonds.network.connections.filter((lane) => lane.probing && !lane.closed)).toEqual([]);
  });

  it('keeps its probing lanes when the path carries their probes', async () => {
    const bonds = lanesOver({});
    bonds.sender.widen(PROBE_BATCH);
    await bonds.runUntil(() => bonds.sender.width === LANES);

    expect(await bonds.carry(0, 300)).toEqual(range(0, 300));
    const made = bonds.network.connections;
    expect(made.map((lane) => lane.probing)).toEqual([true, true, true]);
    expect(made.every((lane) => lane.open)).toBe(true);
  });

  it("waits on for a probe's late answer once another lane's was answered, and then gives that lane frames", async () => {
    // Lane 1's probe is answered a round trip of 600 ms after it went: past its timeout.
    const bonds = lanesOver({ lane: (index) => (index === 1 ? { ...PATH, delayMs: 300 } : PATH) });
    bonds.sender.widen(PROBE_BATCH);
    await bonds.runUntil(() => bonds.sender.width === LANES);
    await bonds.run(LANE_PROBE_TIMEOUT_MIN_MS);

    const offers = bonds.atReceiver.filter(
      (message) => message.type === 'ferry-lane' && message.signal.type === 'offer',
    );
    expect(offers).toHaveLength(LANES - 1);
    await bonds.run(LATE_ANSWER_MS);
    expect(await bonds.carry(0, 300)).toEqual(range(0, 300));
    expect(Math.min(...bonds.arrived())).toBeGreaterThan(0);
  });

  it("answers each lane with the first connection's max-message-size, and takes candidates that came before the offer was set", async () => {
    const bonds = lanesOver({});
    bonds.sender.widen(BATCH);
    await bonds.runUntil(() => bonds.sender.width === LANES);

    const answers = bonds.atSender.flatMap((message) =>
      message.type === 'ferry-lane' && message.signal.type === 'answer' ? [message.signal.sdp] : [],
    );
    expect(answers).toHaveLength(LANES - 1);
    for (const sdp of answers) {
      expect(sdp).toContain(`a=max-message-size:${SDP_MAX_MESSAGE_SIZE_BYTES}`);
    }
    expect(bonds.network.connections.every((lane) => lane.open)).toBe(true);
  });
});
