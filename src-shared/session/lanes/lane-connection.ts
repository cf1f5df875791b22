import type { NegotiationSignal } from '../negotiation-signal';
import { RemoteCandidates } from '../remote-candidates';
import { refusalOfRemoteDescription } from '../remote-description';
import type { ChannelPort, ClockTimer, NegotiatedChannel, PeerConnectionPort } from '../ports';

/**
 * Every lane's one data channel, which both ends create: an in-band channel would open at the
 * sender a round trip after its association, and every lane waits for the last (docs/protocol.md,
 * "Lanes").
 */
export const LANE_CHANNEL: NegotiatedChannel = { label: 'ferry-lane', id: 0 };

/**
 * Where a lane stands with its probe (`lane-mtu`): `none` for a lane that does not probe, else
 * waiting for the other end's answer (sender) or its probe (receiver), then `passed`.
 */
export type ProbeState = 'none' | 'waiting' | 'passed';

/**
 * One extra connection of a lane set and, once it is open, its channel. Its negotiation is the
 * first connection's (connect-peer.ts): the same refusal of a description, and candidates that
 * wait for it (remote-candidates.ts).
 */
export class LaneConnection {
  channel: ChannelPort | undefined;
  /** The lane cannot carry anything (any more); why. */
  gone: string | undefined;
  probe: ProbeState = 'none';
  /** Sender: when the probe's answer is given up on. */
  probeTimer: ClockTimer | undefined;
  #described = false;
  readonly #candidates: RemoteCandidates;

  constructor(
    readonly number: number,
    readonly peer: PeerConnectionPort,
  ) {
    this.#candidates = new RemoteCandidates(peer);
  }

  /** Open, and proven when it probes: a sender's lane may take frames. */
  get ready(): boolean {
    return this.channel !== undefined && this.probe !== 'waiting';
  }

  /** The other end's description came: for a sender's lane, the receiver made its end. */
  get answered(): boolean {
    return this.#described;
  }

  /** Applies the other side's description or candidate; candidates wait for the description. */
  apply(signal: NegotiationSignal, fail: (reason: string) => void): void {
    if (signal.type === 'candidate') {
      this.#candidates.add(signal.candidate);
      return;
    }
    if (this.#described) return;
    const { sdp, type } = signal;
    const refused = refusalOfRemoteDescription(sdp);
    if (refused !== undefined) {
      fail(`its description was refused: ${refused.message} (${refused.code})`);
      return;
    }
    this.#described = true;
    this.peer.setRemoteDescription({ type, sdp }).then(
      () => this.#candidates.describedBy(sdp),
      (error: unknown) => fail(`its description was refused: ${String(error)}`),
    );
  }

  close(graceMs: number): void {
    this.probeTimer?.cancel();
    if (this.channel === undefined) this.peer.close();
    else this.channel.close(graceMs);
  }
}
