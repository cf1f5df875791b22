import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame } from '../../src-shared/protocol';
import { LANE_MIN_BATCH_BYTES } from '../../src-shared/session/session-limits';
import { findTool } from '../../test-support/required-tools';
import { describeNeeding } from '../../test-support/vitest-tools';
import type { RunningServer } from '../signaling-server';
import { scratchFolder, sha256File, writeRandomFile } from './test-support/files-on-disk';
import { startLoopbackServer } from './test-support/loopback-server';
import { transferPair } from './test-support/transfer-pair';
import { startTurnServer, type TurnServer } from './test-support/turn-server-process';
import { countingPeers, offerLaneRegardless } from './test-support/lane-offer';
import { connectPeer } from '../../src-shared/session/connect-peer';
import { LaneReceiver } from '../../src-shared/session/lanes/lane-receiver';
import { LANE_CHANNEL } from '../../src-shared/session/lanes/lane-connection';
import type { NegotiatedChannel } from '../../src-shared/session/ports';
import { signalingPair } from '../../src-shared/session/testing/signaling-pair';
import type { IceServerEntry } from '../../src-shared/signaling/http-api';
import { toNativeIceServers } from './native-ice-servers';
import { nodeClock } from './node-clock';
import { PeerLink } from './peer-link';

describeNeeding('coturn', 'the relay route through a real TURN server (coturn)', () => {
  let turn: TurnServer;
  let server: RunningServer;
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;

  beforeAll(async () => {
    scratch = await scratchFolder();
    turn = await startTurnServer(findTool('coturn')!, scratch.path);
    server = await startLoopbackServer({ turnSecret: turn.secret, turnDomain: turn.host });
  });

  afterAll(async () => {
    await server?.close();
    await turn?.stop();
    await scratch?.remove();
  });

  it('carries a transfer when both peers may only use relay candidates', async () => {
    const file = join(scratch.path, 'relayed.bin');
    await writeRandomFile(file, 4 * 1024 * 1024);
    const destination = join(scratch.path, 'relayed-received');

    // No iceServers override: each side fetches the server's list, credentials minted from TURN_SECRET.
    const outcome = await transferPair(
      server.url,
      { paths: [file], route: 'relay-only' },
      { destination, route: 'relay-only' },
    );

    expect(outcome.sender.phase).toBe('done');
    expect(outcome.receiver.phase).toBe('done');
    expect(outcome.senderRoute).toEqual({ local: 'relay', remote: 'relay', relayed: true });
    expect(outcome.receiverRoute).toEqual({ local: 'relay', remote: 'relay', relayed: true });
    expect(await sha256File(join(destination, 'relayed.bin'))).toBe(await sha256File(file));
  });

  // docs/protocol.md, "Lanes": a relay is a shared server, often with a cap on allocations per
  // user, and lanes would take 11 more at each end.
  it('keeps a relayed batch on one connection, though both peers speak lanes', async () => {
    const file = join(scratch.path, 'relayed-large.bin');
    await writeRandomFile(file, 2 * LANE_MIN_BATCH_BYTES);
    const destination = join(scratch.path, 'relayed-large-received');
    let laneMessages = 0;
    const outgoing = (frame: Frame): Frame => {
      if (frame.kind === 'text' && frame.text.includes('"ferry-lane"')) laneMessages += 1;
      return frame;
    };
    // Loopback's round trip is too short for lanes: these peers would open them on any path.
    const lanes = { lanes: 12, laneMinRoundTripMs: 0 };

    const outcome = await transferPair(
      server.url,
      { ...lanes, paths: [file], route: 'relay-only', testSeam: { outgoing } },
      { ...lanes, destination, route: 'relay-only' },
    );

    expect(laneMessages).toBe(0);
    expect(outcome.sender).toMatchObject({ phase: 'done', confirmed: true, verified: true });
    expect(outcome.receiver).toMatchObject({ phase: 'done', verified: true });
    expect(outcome.senderRoute).toMatchObject({ relayed: true });
    expect(await sha256File(join(destination, 'relayed-large.bin'))).toBe(await sha256File(file));
  });

  // docs/protocol.md, "Lanes": each answered lane would gather with this side's TURN list, up to
  // eleven more allocations on a shared relay, whatever the sender decided.
  it('a receiver answers no lane offer over a relayed route, even with lanes agreed', async () => {
    const response = await fetch(`${server.url}/api/turn-credentials`);
    const iceServers = toNativeIceServers((await response.json()) as IceServerEntry[]);
    const links: PeerLink[] = [];
    const createPeer = (role: 'offerer' | 'answerer', negotiated?: NegotiatedChannel) => {
      const link = new PeerLink({
        role,
        iceServers,
        relayOnly: true,
        ...(negotiated && { negotiated }),
      });
      links.push(link);
      return link;
    };
    try {
      const room = signalingPair();
      const timeouts = {
        offerAnswer: 5000,
        connect: 10_000,
        attempt: 8000,
        channelGrace: 3000,
        peerJoin: 5000,
      };
      const common = { createPeer, clock: nodeClock, timeouts };
      const sending = connectPeer({ ...common, signaling: room.sender }).result;
      const receiving = connectPeer({ ...common, signaling: room.receiver }).result;
      room.join();
      const [out, into] = [await sending, await receiving];
      if (!out.ok || !into.ok) throw new Error('the relayed first connection did not open');
      expect(await into.channel.relayed()).toBe(true);
      const peers = countingPeers(createPeer);
      const receiver = new LaneReceiver(
        into.channel,
        { createPeer: peers.createPeer, count: 12, minRoundTripMs: 0, agreed: () => true },
        nodeClock,
      );

      await offerLaneRegardless(out.channel, receiver, createPeer('offerer', LANE_CHANNEL));

      expect(peers.made()).toBe(0);
    } finally {
      for (const link of links) link.close(0);
    }
  });
});
