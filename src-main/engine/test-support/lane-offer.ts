import { textFrame } from '../../../src-shared/protocol';
import { laneSignalFrame } from '../../../src-shared/session/lanes/lane-messages';
import type { NegotiationSignal } from '../../../src-shared/session/negotiation-signal';
import type {
  ChannelPort,
  PeerConnectionFactory,
  PeerConnectionPort,
} from '../../../src-shared/session/ports';

const SENTINEL = JSON.stringify({ type: 'lane-offer-read' });

/** A lane factory that counts the connections a receiver makes to answer lanes. */
export function countingPeers(create: PeerConnectionFactory): {
  createPeer: PeerConnectionFactory;
  made(): number;
} {
  let made = 0;
  return {
    createPeer: (role, negotiated) => {
      made += 1;
      return create(role, negotiated);
    },
    made: () => made,
  };
}

/**
 * Sends, on the sender's end `out` of a first connection, a genuine offer for lane 1 (made by
 * `offerer`, a lane connection of the sender's), whatever was agreed, as a sender that ignores
 * the rules would. Resolves once the receiver's bond `into` has certainly read it: a frame sent
 * after it on the ordered connection has come through, and the receiver has read its route.
 */
export async function offerLaneRegardless(
  out: ChannelPort,
  into: ChannelPort,
  offerer: PeerConnectionPort,
): Promise<void> {
  const offer = await new Promise<NegotiationSignal>((resolve) =>
    offerer.listen({
      signal: (signal) => {
        if (signal.type === 'offer') resolve(signal);
      },
    }),
  );
  const read = new Promise<void>((resolve) =>
    into.listen({
      frame: (frame) => {
        if (frame.kind === 'text' && frame.text === SENTINEL) resolve();
      },
    }),
  );
  out.send(laneSignalFrame(1, offer, false));
  out.send(textFrame(SENTINEL));
  await read;
  await into.relayed();
}
