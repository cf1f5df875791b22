import { defaultFailure, type Failure } from '../../../src-shared/protocol/error-codes';
import {
  CHANNEL_GRACE_MS,
  CONNECT_TIMEOUT_MS,
  OFFER_ANSWER_TIMEOUT_MS,
} from '../../../src-shared/protocol/limits';
import { withMaxMessageSize } from './max-message-size';
import { decodeSignal, encodeSignal, type SignalMessage } from './signal-message';
import type { SignalingEvent, SignalingSocket } from './signaling-socket';
import { serverError } from './signaling-socket';
import { TransferFailure } from './transfer-failure';

/** The label of the one data channel a sender opens; receivers take whatever channel arrives. */
export const CHANNEL_LABEL = 'ferry';

/** An open data channel and the connection that carries it; both live as long as the transfer. */
export interface PeerLink {
  readonly pc: RTCPeerConnection;
  readonly channel: RTCDataChannel;
  /** Whether the selected route runs through a TURN relay. */
  relayed(): Promise<boolean>;
  close(): void;
}

export interface ConnectOptions {
  signaling: SignalingSocket;
  iceServers: RTCIceServer[];
  signal: AbortSignal;
}

/**
 * The sender's side: opens the channel, offers to `peerId`, applies the answer. Resolves once the
 * channel is open.
 */
export function connectAsOfferer(options: ConnectOptions & { peerId: string }): Promise<PeerLink> {
  return connect(options, options.peerId);
}

/** The receiver's side: waits for the sender's offer, answers, and takes the sender's channel. */
export function connectAsAnswerer(options: ConnectOptions): Promise<PeerLink> {
  return connect(options, undefined);
}

const fail = (failure: Failure): TransferFailure => new TransferFailure(failure);

function connect(options: ConnectOptions, offerTo: string | undefined): Promise<PeerLink> {
  const { signaling, iceServers, signal } = options;
  const pc = new RTCPeerConnection({ iceServers });
  const offering = offerTo !== undefined;
  let peerId = offerTo;
  let remoteSet = false;
  const early: RTCIceCandidateInit[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  return new Promise<PeerLink>((resolve, reject) => {
    let settled = false;
    const stopListening = signaling.listen(onSignaling);
    const cancel = (): void => abandon(defaultFailure('ERR_CANCELLED'));
    signal.addEventListener('abort', cancel, { once: true });

    function after(ms: number, failure: Failure): () => void {
      const timer = setTimeout(() => abandon(failure), ms);
      timers.add(timer);
      return () => {
        clearTimeout(timer);
        timers.delete(timer);
      };
    }

    function cleanUp(): void {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      stopListening();
      signal.removeEventListener('abort', cancel);
      pc.removeEventListener('connectionstatechange', onConnectionState);
    }

    function abandon(failure: Failure): void {
      if (settled) return;
      cleanUp();
      pc.close();
      reject(fail(failure));
    }

    function opened(channel: RTCDataChannel): void {
      if (settled) return;
      cleanUp();
      resolve({
        pc,
        channel,
        relayed: () => isRelayed(pc),
        close: () => {
          channel.close();
          pc.close();
        },
      });
    }

    function send(message: SignalMessage): void {
      signaling.send(encodeSignal(message), peerId);
    }

    pc.addEventListener('icecandidate', ({ candidate }) => {
      if (candidate && candidate.candidate !== '') {
        send({
          kind: 'candidate',
          candidate: { ...candidate.toJSON(), candidate: candidate.candidate },
        });
      }
    });

    const stopSignalTimer = after(OFFER_ANSWER_TIMEOUT_MS, defaultFailure('ERR_SIGNAL_TIMEOUT'));
    let stopConnectTimer: (() => void) | undefined;
    function onConnectionState(): void {
      if (pc.connectionState === 'failed') {
        abandon({
          ...defaultFailure('ERR_CONNECT_TIMEOUT'),
          message: 'no network route to the other device was found',
        });
      } else if (pc.connectionState === 'connected') {
        stopConnectTimer?.();
        after(CHANNEL_GRACE_MS, defaultFailure('ERR_CHANNEL_TIMEOUT'));
      }
    }
    pc.addEventListener('connectionstatechange', onConnectionState);

    function awaitChannel(channel: RTCDataChannel): void {
      channel.binaryType = 'arraybuffer';
      if (channel.readyState === 'open') opened(channel);
      else channel.addEventListener('open', () => opened(channel), { once: true });
    }

    async function onDescription(description: RTCSessionDescriptionInit): Promise<void> {
      if (offering ? description.type !== 'answer' : description.type !== 'offer') return;
      if (remoteSet) return;
      remoteSet = true;
      stopSignalTimer();
      await pc.setRemoteDescription(description);
      for (const candidate of early.splice(0)) await addCandidate(candidate);
      if (!offering) {
        await pc.setLocalDescription(await pc.createAnswer());
        const answer = pc.localDescription;
        if (answer === null) throw new Error('the browser produced no answer');
        send({
          kind: 'description',
          description: { type: 'answer', sdp: withMaxMessageSize(answer.sdp) },
        });
      }
      stopConnectTimer = after(CONNECT_TIMEOUT_MS, defaultFailure('ERR_CONNECT_TIMEOUT'));
    }

    async function addCandidate(candidate: RTCIceCandidateInit): Promise<void> {
      try {
        await pc.addIceCandidate(candidate);
      } catch (error) {
        // One unusable candidate (an mDNS name this machine cannot resolve, say) is not fatal.
        console.warn('Ferry ignored an ICE candidate it could not use', error);
      }
    }

    function onSignaling(event: SignalingEvent): void {
      switch (event.type) {
        case 'signal': {
          if (peerId !== undefined && event.sender !== peerId) return;
          const message = decodeSignal(event.signal);
          if (message === undefined) return;
          if (message.kind === 'candidate') {
            if (remoteSet) void addCandidate(message.candidate);
            else early.push(message.candidate);
            return;
          }
          // The receiver learns who the sender is from the offer.
          peerId ??= event.sender;
          onDescription(message.description).catch((error: unknown) =>
            abandon({
              ...defaultFailure('ERR_CONNECT_TIMEOUT'),
              message: `the connection could not be negotiated (${String(error)})`,
            }),
          );
          return;
        }
        case 'peer-disconnected':
          return abandon(defaultFailure('ERR_PEER_CLOSED'));
        case 'lost':
          return abandon(defaultFailure('ERR_SIGNALING_UNREACHABLE'));
        case 'error':
          return abandon(serverError(event.message));
        case 'user-connected':
          return;
      }
    }

    if (offering) {
      awaitChannel(pc.createDataChannel(CHANNEL_LABEL, { ordered: true }));
      pc.createOffer()
        .then((offer) => pc.setLocalDescription(offer))
        .then(() => {
          const offer = pc.localDescription;
          if (offer === null) throw new Error('the browser produced no offer');
          send({ kind: 'description', description: { type: 'offer', sdp: offer.sdp } });
        })
        .catch((error: unknown) =>
          abandon({
            ...defaultFailure('ERR_CONNECT_TIMEOUT'),
            message: `the connection could not be negotiated (${String(error)})`,
          }),
        );
    } else {
      pc.addEventListener('datachannel', ({ channel }) => awaitChannel(channel), { once: true });
    }
  });
}

/** Reads the selected candidate pair: a relay candidate on either end means the route is TURN. */
export async function isRelayed(pc: RTCPeerConnection): Promise<boolean> {
  try {
    const stats = await pc.getStats();
    const byId = new Map<string, Record<string, unknown>>();
    stats.forEach((report: Record<string, unknown>) => byId.set(String(report.id), report));
    for (const report of byId.values()) {
      if (report.type !== 'transport' || typeof report.selectedCandidatePairId !== 'string')
        continue;
      const pair = byId.get(report.selectedCandidatePairId);
      const local = byId.get(String(pair?.localCandidateId));
      const remote = byId.get(String(pair?.remoteCandidateId));
      return local?.candidateType === 'relay' || remote?.candidateType === 'relay';
    }
  } catch {
    // No stats: the relay cap then does not apply, as on a route that is not relayed.
  }
  return false;
}
