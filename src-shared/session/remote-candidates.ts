import { dataChannelMid, type NegotiationSignal } from './negotiation-signal';
import type { PeerConnectionPort } from './ports';

export type CandidateInit = Extract<NegotiationSignal, { type: 'candidate' }>['candidate'];

/**
 * The other side's candidates for one connection, the first or a lane's (docs/protocol.md,
 * "Connection lifecycle"): no stack takes a candidate before the remote description, so each
 * waits for it; an answerer may hold them a while longer (connect-peer.ts). One unusable
 * candidate costs its route, not the connection.
 */
export class RemoteCandidates {
  readonly #peer: PeerConnectionPort;
  #remoteSdp: string | undefined;
  readonly #pending: CandidateInit[] = [];
  #held: CandidateInit[] | undefined;

  /** With `hold`, candidates wait past the description until `release`. */
  constructor(peer: PeerConnectionPort, { hold = false }: { hold?: boolean } = {}) {
    this.#peer = peer;
    this.#held = hold ? [] : undefined;
  }

  /** Candidates are still held back after the description. */
  get holding(): boolean {
    return this.#held !== undefined;
  }

  /** The stack took the remote description `sdp`: the candidates that waited for it go now. */
  describedBy(sdp: string): void {
    this.#remoteSdp = sdp;
    for (const candidate of this.#pending.splice(0)) this.add(candidate);
  }

  /** The hold is over: the held candidates go. */
  release(): void {
    const held = this.#held;
    this.#held = undefined;
    for (const candidate of held ?? []) this.add(candidate);
  }

  add(candidate: CandidateInit): void {
    const sdp = this.#remoteSdp;
    if (sdp === undefined) {
      this.#pending.push(candidate);
      return;
    }
    if (this.#held !== undefined) {
      this.#held.push(candidate);
      return;
    }
    const sdpMLineIndex = candidate.sdpMLineIndex ?? 0;
    const sdpMid = candidate.sdpMid ?? dataChannelMid(sdp, sdpMLineIndex) ?? '0';
    this.#peer
      .addRemoteCandidate({ candidate: candidate.candidate, sdpMid, sdpMLineIndex })
      .catch(() => undefined);
  }
}
