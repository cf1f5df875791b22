import { dataChannelMid, type NegotiationSignal } from '../negotiation-signal';
import type { ChannelPort, NegotiatedChannel, PeerConnectionPort } from '../ports';

/**
 * Every lane's one data channel, which both ends create: an in-band channel would open at the
 * sender a round trip after its association, and every lane waits for the last (docs/protocol.md,
 * "Lanes").
 */
export const LANE_CHANNEL: NegotiatedChannel = { label: 'ferry-lane', id: 0 };

/** One extra connection of a lane bond and, once it is open, its channel. */
export class LaneConnection {
  channel: ChannelPort | undefined;
  /** The lane cannot carry anything (any more); why. */
  gone: string | undefined;
  #remoteSdp: string | undefined;
  #candidates: NegotiationSignal[] = [];

  constructor(
    readonly number: number,
    readonly peer: PeerConnectionPort,
  ) {}

  /** The other end's description was set: for a sender's lane, the receiver made its end. */
  get answered(): boolean {
    return this.#remoteSdp !== undefined;
  }

  /** Applies the other side's description or candidate; candidates wait for the description. */
  apply(signal: NegotiationSignal, fail: (reason: string) => void): void {
    if (signal.type !== 'candidate') {
      if (this.#remoteSdp !== undefined) return;
      const { sdp, type } = signal;
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
    if (this.channel === undefined) this.peer.close();
    else this.channel.close(graceMs);
  }
}
