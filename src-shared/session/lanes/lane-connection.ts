import { dataChannelMid, type NegotiationSignal } from '../negotiation-signal';
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

/** One extra connection of a lane bond and, once it is open, its channel. */
export class LaneConnection {
  channel: ChannelPort | undefined;
  /** The lane cannot carry anything (any more); why. */
  gone: string | undefined;
  probe: ProbeState = 'none';
  /** Sender: when the probe's answer is given up on. */
  probeTimer: ClockTimer | undefined;
  #remoteSdp: string | undefined;
  #candidates: NegotiationSignal[] = [];

  constructor(
    readonly number: number,
    readonly peer: PeerConnectionPort,
  ) {}

  /** Open, and proven when it probes: a sender's lane may take frames. */
  get ready(): boolean {
    return this.channel !== undefined && this.probe !== 'waiting';
  }

  /** The other end's description was set: for a sender's lane, the receiver made its end. */
  get answered(): boolean {
    return this.#remoteSdp !== undefined;
  }

  /** Applies the other side's description or candidate; candidates wait for the description. */
  apply(signal: NegotiationSignal, fail: (reason: string) => void): void {
    if (signal.type !== 'candidate') {
      if (this.#remoteSdp !== undefined) return;
      const { sdp, type } = signal;
      const refused = refusalOfRemoteDescription(sdp);
      if (refused !== undefined) {
        fail(`its description was refused: ${refused.message} (${refused.code})`);
        return;
      }
      this.#remoteSdp = sdp;
      this.peer.setRemoteDescription({ type, sdp }).then(
        () => this.#candidates.splice(0).forEach((held) => this.apply(held, fail)),
        (error: unknown) => fail(`its description was refused: ${String(error)}`),
      );
      return;
    }
    if (this.#remoteSdp === undefined) {
      this.#candidates.push(signal);
      return;
    }
    const { candidate, sdpMid, sdpMLineIndex = 0 } = signal.candidate;
    const mid = sdpMid ?? dataChannelMid(this.#remoteSdp, sdpMLineIndex);
    if (mid === undefined) return;
    // One bad candidate costs only its route, as on the first connection.
    this.peer.addRemoteCandidate({ candidate, sdpMid: mid, sdpMLineIndex }).catch(() => undefined);
  }

  close(graceMs: number): void {
    this.probeTimer?.cancel();
    if (this.channel === undefined) this.peer.close();
    else this.channel.close(graceMs);
  }
}
