import { describe, expect, it } from 'vitest';
import { SDP_MAX_MESSAGE_SIZE_BYTES } from '../protocol/limits';
import type { SignalPayload } from '../signaling/signal-payload';
import { CONNECT_TIMEOUTS, connectPeer, type ConnectResult } from './connect-peer';
import { ANSWERER_CHECKS_HOLD_MS } from './session-limits';
import type { NegotiationSignal } from './negotiation-signal';
import type {
  ChannelPort,
  PeerConnectionHandlers,
  PeerConnectionPort,
  SignalingEvent,
  SignalingPort,
} from './ports';
import { SignalInbox } from './signal-inbox';
import { ManualClock } from './testing/manual-clock';

/** A seat whose traffic the test reads and writes directly. */
function seat(role: 'sender' | 'receiver') {
  const inbox = new SignalInbox();
  const sent: SignalPayload[] = [];
  const port: SignalingPort = {
    role,
    signal: (payload) => sent.push(payload),
    listen: (listener) => inbox.listen(listener),
    close: () => undefined,
  };
  return { port, sent, deliver: (event: SignalingEvent) => inbox.deliver(event) };
}

/** A connection attempt the test drives by hand: what the stack would report, it reports. */
class ScriptedPeer implements PeerConnectionPort {
  readonly remote: string[] = [];
  readonly candidates: { candidate: string; sdpMid: string; sdpMLineIndex: number }[] = [];
  closed = false;
  #handlers: PeerConnectionHandlers = {};

  constructor(readonly role: 'offerer' | 'answerer') {}

  listen(handlers: PeerConnectionHandlers): () => void {
    this.#handlers = handlers;
    return () => (this.#handlers = {});
  }
  async setRemoteDescription(description: { type: string; sdp: string }): Promise<void> {
    this.remote.push(`${description.type}:${description.sdp}`);
  }
  async addRemoteCandidate(candidate: {
    candidate: string;
    sdpMid: string;
    sdpMLineIndex: number;
  }): Promise<void> {
    this.candidates.push(candidate);
  }
  close(): void {
    this.closed = true;
  }
  emit(signal: NegotiationSignal): void {
    this.#handlers.signal?.(signal);
  }
  fail(reason: string): void {
    this.#handlers.failed?.(reason);
  }
  connect(): void {
    this.#handlers.connected?.();
  }
  open(): ChannelPort {
    const channel = { isClosed: false } as ChannelPort;
    this.#handlers.open?.(channel);
    return channel;
  }
}

function connecting(role: 'sender' | 'receiver') {
  const clock = new ManualClock();
  const room = seat(role);
  const peers: ScriptedPeer[] = [];
  const retries: number[] = [];
  const settled: { result?: ConnectResult } = {};
  const handle = connectPeer({
    signaling: room.port,
    clock,
    timeouts: CONNECT_TIMEOUTS,
    createPeer: (peerRole) => {
      const peer = new ScriptedPeer(peerRole);
      peers.push(peer);
      return peer;
    },
    onRetry: (attempt) => retries.push(attempt),
  });
  void handle.result.then((result) => (settled.result = result));
  return { clock, room, peers, retries, settled, handle };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const OFFER_SDP = 'v=0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\na=mid:data\r\n';

describe('the connection lifecycle (sender, the offerer)', () => {
  it('offers once the receiver joins, numbering the attempt, and ignores a stale answer', async () => {
    const { room, peers, clock, retries } = connecting('sender');
    room.deliver({ type: 'user-connected' });
    peers[0].emit({ type: 'offer', sdp: 'offer-1' });
    expect(room.sent).toEqual([{ type: 'offer', sdp: 'offer-1', attempt: 1 }]);

    clock.advance(CONNECT_TIMEOUTS.attempt);
    expect(peers[0].closed).toBe(true);
    expect(retries).toEqual([2]);
    peers[1].emit({ type: 'offer', sdp: 'offer-2' });
    room.deliver({ type: 'signal', payload: { type: 'answer', sdp: 'late', attempt: 1 } });
    room.deliver({ type: 'signal', payload: { type: 'answer', sdp: 'answer-2', attempt: 2 } });
    await flush();

    expect(room.sent).toContainEqual({ type: 'offer', sdp: 'offer-2', attempt: 2 });
    expect(peers[1].remote).toEqual(['answer:answer-2']);
  });

  it('takes a spec peer’s unnumbered answer and candidates, the candidates after the answer', async () => {
    const { room, peers, settled } = connecting('sender');
    room.deliver({ type: 'user-connected' });
    room.deliver({
      type: 'signal',
      payload: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMLineIndex: 0 },
    });
    room.deliver({ type: 'signal', payload: { type: 'answer', sdp: OFFER_SDP } });
    await flush();

    expect(peers[0].remote).toEqual([`answer:${OFFER_SDP}`]);
    expect(peers[0].candidates).toEqual([
      { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: 'data', sdpMLineIndex: 0 },
    ]);
    const channel = peers[0].open();
    await flush();
    expect(settled.result).toEqual({ ok: true, channel });
  });

  it('gives up after the last attempt with "no route" when none ever connected', async () => {
    const { room, peers, clock, settled } = connecting('sender');
    room.deliver({ type: 'user-connected' });
    room.deliver({ type: 'signal', payload: { type: 'answer', sdp: OFFER_SDP } });
    await flush();
    peers[0].fail('ICE failed');
    room.deliver({ type: 'signal', payload: { type: 'answer', sdp: OFFER_SDP, attempt: 2 } });
    await flush();
    peers[1].fail('ICE failed');
    peers[2].fail('ICE failed');
    await flush();

    expect(peers).toHaveLength(3);
    expect(settled.result).toMatchObject({ ok: false, failure: { code: 'ERR_NO_ROUTE' } });
    clock.advance(CONNECT_TIMEOUTS.connect);
    expect(peers).toHaveLength(3);
  });

  it('tells a receiver-less code apart: it expires', async () => {
    const { clock, settled } = connecting('sender');
    clock.advance(CONNECT_TIMEOUTS.peerJoin);
    await flush();
    expect(settled.result).toMatchObject({
      ok: false,
      failure: {
        code: 'ERR_CODE_EXPIRED',
        message: 'the code expired before the other device used it',
      },
    });
  });
});

describe('the connection lifecycle (receiver, the answerer)', () => {
  it('answers with max-message-size, and follows a newer offer from a retrying sender', async () => {
    const { room, peers, retries } = connecting('receiver');
    room.deliver({ type: 'signal', payload: { type: 'offer', sdp: OFFER_SDP, attempt: 1 } });
    await flush();
    peers[0].emit({ type: 'answer', sdp: OFFER_SDP });
    expect(room.sent[0]).toMatchObject({ type: 'answer', attempt: 1 });
    expect(JSON.stringify(room.sent[0])).toContain(
      `a=max-message-size:${SDP_MAX_MESSAGE_SIZE_BYTES}`,
    );

    room.deliver({ type: 'signal', payload: { type: 'offer', sdp: OFFER_SDP, attempt: 2 } });
    await flush();

    expect(peers[0].closed).toBe(true);
    expect(peers).toHaveLength(2);
    expect(peers[1].remote).toEqual([`offer:${OFFER_SDP}`]);
    // The receiver's person sees "Retrying the connection…" too.
    expect(retries).toEqual([2]);
  });

  it("holds the offerer's candidates until its connection is up, so its checks cannot race the answer", async () => {
    const { room, peers } = connecting('receiver');
    const candidate = (n: number) => ({
      type: 'signal' as const,
      payload: { candidate: { candidate: `candidate:${n} 1 UDP 1 10.0.0.${n} 5000 typ host` } },
    });
    room.deliver(candidate(1));
    room.deliver({ type: 'signal', payload: { type: 'offer', sdp: OFFER_SDP } });
    room.deliver(candidate(2));
    await flush();
    expect(peers[0].candidates).toEqual([]);

    peers[0].connect();
    await flush();
    // In any order: the one that came before the offer is added once the offer is set.
    expect(peers[0].candidates.map((c) => c.candidate).sort()).toEqual([
      'candidate:1 1 UDP 1 10.0.0.1 5000 typ host',
      'candidate:2 1 UDP 1 10.0.0.2 5000 typ host',
    ]);
    room.deliver(candidate(3));
    await flush();
    expect(peers[0].candidates).toHaveLength(3);
  });

  it("adds the offerer's candidates after the hold when the offerer's checks never arrive", async () => {
    const { room, peers, clock } = connecting('receiver');
    room.deliver({ type: 'signal', payload: { type: 'offer', sdp: OFFER_SDP } });
    room.deliver({
      type: 'signal',
      payload: { candidate: { candidate: 'candidate:1 1 UDP 1 10.0.0.1 5000 typ host' } },
    });
    await flush();
    clock.advance(ANSWERER_CHECKS_HOLD_MS - 1);
    await flush();
    expect(peers[0].candidates).toEqual([]);
    clock.advance(1);
    await flush();
    expect(peers[0].candidates).toHaveLength(1);
  });

  it("adds a Ferry offerer's candidates at once: it numbers its attempts and holds its own", async () => {
    const { room, peers } = connecting('receiver');
    room.deliver({ type: 'signal', payload: { type: 'offer', sdp: OFFER_SDP, attempt: 1 } });
    room.deliver({
      type: 'signal',
      payload: {
        candidate: { candidate: 'candidate:1 1 UDP 1 10.0.0.1 5000 typ host' },
        attempt: 1,
      },
    });
    await flush();
    expect(peers[0].candidates).toHaveLength(1);
  });

  it('fails with "timed out waiting for the offer" when no offer comes', async () => {
    const { clock, settled } = connecting('receiver');
    clock.advance(CONNECT_TIMEOUTS.offerAnswer);
    await flush();
    expect(settled.result).toMatchObject({ ok: false, failure: { code: 'ERR_SIGNAL_TIMEOUT' } });
  });

  it('takes a sender leaving the room after offer and answer crossed as no failure', async () => {
    const { room, peers, settled } = connecting('receiver');
    room.deliver({ type: 'signal', payload: { type: 'offer', sdp: OFFER_SDP } });
    await flush();
    room.deliver({ type: 'peer-disconnected' });
    const channel = peers[0].open();
    await flush();
    expect(settled.result).toEqual({ ok: true, channel });
  });

  it('fails at once when the sender leaves before any offer', async () => {
    const { room, settled } = connecting('receiver');
    room.deliver({ type: 'peer-disconnected' });
    await flush();
    expect(settled.result).toMatchObject({ ok: false, failure: { code: 'ERR_PEER_CLOSED' } });
  });
});

// docs/protocol.md, "Connection requirement": a browser may complete DTLS with any listed
// certificate, so a description naming two is refused before the stack sees it.
describe('a remote description with more than one a=fingerprint line', () => {
  const PRINT = 'a=fingerprint:sha-256 0A:1B:2C:3D';
  const OTHER = 'a=fingerprint:sha-256 FF:EE:DD:CC';
  const M_LINE = 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel';
  const twoLines = {
    'at session level': ['v=0', PRINT, OTHER, M_LINE, 'a=mid:data', ''].join('\r\n'),
    'at media level': ['v=0', M_LINE, 'a=mid:data', PRINT, OTHER, ''].join('\r\n'),
    'one at each level': ['v=0', PRINT, M_LINE, 'a=mid:data', OTHER, ''].join('\n'),
  };

  for (const [where, sdp] of Object.entries(twoLines)) {
    it(`is refused in an offer, ${where}: the receiver makes no connection`, async () => {
      const { room, peers, settled } = connecting('receiver');
      room.deliver({ type: 'signal', payload: { type: 'offer', sdp, attempt: 1 } });
      await flush();
      expect(settled.result).toMatchObject({
        ok: false,
        failure: { code: 'ERR_TWO_FINGERPRINTS' },
      });
      expect(peers.flatMap((peer) => peer.remote)).toEqual([]);
      expect(room.sent).toEqual([]);
    });

    it(`is refused in an answer, ${where}: the sender's attempt never takes it`, async () => {
      const { room, peers, settled } = connecting('sender');
      room.deliver({ type: 'user-connected' });
      peers[0].emit({ type: 'offer', sdp: OFFER_SDP });
      room.deliver({ type: 'signal', payload: { type: 'answer', sdp, attempt: 1 } });
      await flush();
      expect(settled.result).toMatchObject({
        ok: false,
        failure: { code: 'ERR_TWO_FINGERPRINTS' },
      });
      expect(peers[0].remote).toEqual([]);
      expect(peers[0].closed).toBe(true);
    });
  }

  it('does not touch a description with one line', async () => {
    const { room, peers, settled } = connecting('receiver');
    const sdp = ['v=0', M_LINE, 'a=mid:data', PRINT, ''].join('\r\n');
    room.deliver({ type: 'signal', payload: { type: 'offer', sdp, attempt: 1 } });
    await flush();
    expect(settled.result).toBeUndefined();
    expect(peers[0].remote).toEqual([`offer:${sdp}`]);
  });
});
