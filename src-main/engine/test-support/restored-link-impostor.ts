import { classifyFrameFromSender } from '../../../src-shared/protocol/frame-classification';
import { CONNECT_TIMEOUTS, connect } from '../../../src-shared/session/connect-peer';
import type { ChannelPort, SignalingPort } from '../../../src-shared/session/ports';
import { reconnectRoomId } from '../../../src-shared/session/reconnect';
import { DEFAULT_TIMEOUTS } from '../engine-options';
import { nodeClock } from '../node-clock';
import { PeerLink } from '../peer-link';
import { nativeSignalingRequests } from '../signaling-requests';
import { joinSignalingRoom } from '../signaling-seat';

export interface RestoredLinkImpostor {
  /**
   * Settles once every connection a peer made with it has ended. Call it once that peer is gone:
   * from then on `dataBytes` is final.
   */
  settled(): Promise<void>;
  /** File data it was sent, over any connection. */
  readonly dataBytes: () => number;
  /** Resolves once a peer connected to it, whatever that peer then did. */
  readonly met: Promise<void>;
  close(): void;
}

/**
 * A third device that learned a batch's code (anyone it was read out to can) and waits, with a
 * certificate of its own, in the room a lost link's reconnect would use if it were derived from
 * the transfer's room alone, to take the batch up in the real peer's place. Ferry derives that room
 * from a secret the two peers exchanged in-band (docs/protocol.md, "Reconnect"), so it waits in
 * vain.
 */
export async function waitInRestoredRoom(
  serverUrl: string,
  code: string,
): Promise<RestoredLinkImpostor> {
  const requests = nativeSignalingRequests(serverUrl, DEFAULT_TIMEOUTS);
  const roomId = await requests.resolveCode(code, new AbortController().signal);
  return waitInRoom(serverUrl, await reconnectRoomId(roomId, 1));
}

/**
 * A stranger with a certificate of its own in `roomId`: it connects to whoever comes, and tries
 * again when an attempt fails, until it has a channel or is let go.
 */
export async function waitInRoom(serverUrl: string, roomId: string): Promise<RestoredLinkImpostor> {
  const stop = new AbortController();
  const seat: SignalingPort = await joinSignalingRoom(
    { serverUrl },
    roomId,
    DEFAULT_TIMEOUTS.roleWait,
    stop.signal,
  );
  let dataBytes = 0;
  // Counted on every connection from its start: the sender may refuse this device before a
  // connection attempt counts as done here, and what arrived by then must count all the same.
  const ended: Promise<void>[] = [];
  const route = {
    createPeer: (role: 'offerer' | 'answerer') => {
      const link = new PeerLink({ role, iceServers: [], relayOnly: false });
      link.listen({
        frame: (frame) => {
          const read = classifyFrameFromSender(frame, 'native');
          if (read.kind === 'file-data') dataBytes += read.bytes.byteLength;
        },
      });
      ended.push(new Promise((resolve) => link.listen({ closed: () => resolve() })));
      return link;
    },
  };
  // Like any peer that means it, it waits for whoever comes and tries again when an attempt
  // fails (a loaded machine can miss one), until it has a channel or is let go.
  const connectOnce = (): Promise<ChannelPort> =>
    connect(
      { clock: nodeClock, timeouts: CONNECT_TIMEOUTS },
      seat,
      route,
      stop.signal,
      () => undefined,
    );
  const keepTrying = async (): Promise<ChannelPort> => {
    for (;;) {
      try {
        return await connectOnce();
      } catch (error) {
        // Let go, or the seat itself is gone: nobody will come any more.
        const code = (error as { code?: string }).code ?? '';
        if (stop.signal.aborted || code.startsWith('ERR_SIGNALING')) throw error;
      }
    }
  };
  const connected = keepTrying();
  connected.catch(() => undefined);
  const met = connected.then(() => undefined);
  met.catch(() => undefined);
  return {
    settled: () => Promise.all(ended).then(() => undefined),
    dataBytes: () => dataBytes,
    met,
    close() {
      stop.abort();
      seat.close();
      void connected.then(
        (channel) => channel.close(0),
        () => undefined,
      );
    },
  };
}
