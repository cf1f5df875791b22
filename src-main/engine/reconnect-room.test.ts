import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUTS } from '../../src-shared/session/connect-peer';
import { newRejoinSecret, reconnect, reconnectRoomId } from '../../src-shared/session/reconnect';
import { loadNativeIdentity } from '../devices/native-identity';
import { DEFAULT_TIMEOUTS } from './engine-options';
import { nodeClock } from './node-clock';
import { PeerLink } from './peer-link';
import { joinSignalingRoom } from './signaling-seat';
import { useLoopbackRig } from './test-support/loopback-rig';
import { waitInRoom } from './test-support/restored-link-impostor';

// docs/protocol.md, "Reconnect": a stranger in the room where two peers meet again after a lost
// link is skipped, and the real peer waited for, within the reconnect window.
const rig = useLoopbackRig();

function ports() {
  return {
    clock: nodeClock,
    timeouts: CONNECT_TIMEOUTS,
    joinRoom: (roomId: string, stop: AbortSignal) =>
      joinSignalingRoom({ serverUrl: rig.server.url }, roomId, DEFAULT_TIMEOUTS.roleWait, stop),
  };
}

/** `opened` hears the other end's certificate of each channel that opened. */
function route(pemFile?: string, opened?: (remote: string | undefined) => void) {
  return {
    createPeer: (role: 'offerer' | 'answerer') => {
      const link = new PeerLink({
        role,
        iceServers: [],
        relayOnly: false,
        ...(pemFile && { pemFile }),
      });
      if (opened) link.listen({ open: () => opened(link.fingerprints()?.remote) });
      return link;
    },
  };
}

describe('meeting again after a lost link', () => {
  it('skips a stranger found in the room and connects to the batch’s peer once it comes', async () => {
    const rejoinSecret = newRejoinSecret(randomBytes) ?? '';
    const room = { rejoinSecret, generation: 1 };
    // The peer the batch started with, whose certificate persists.
    const peer = await loadNativeIdentity(join(rig.scratch.path, 'peer-identity'));
    const stranger = await waitInRoom(rig.server.url, await reconnectRoomId(rejoinSecret, 1));
    const stop = new AbortController();
    let peerBack: ReturnType<typeof reconnect> | undefined;
    // Seen from the reconnecting side: a channel opened to someone else's certificate. Only then
    // is the stranger let go; a try can also fail before any channel opens (a loaded machine),
    // and then the stranger is still to be met.
    let strangerMet = false;
    const attempts: number[] = [];
    const back = reconnect(
      ports(),
      route(undefined, (remote) => {
        if (remote !== peer.fingerprint) strangerMet = true;
      }),
      room,
      { fingerprint: peer.fingerprint },
      stop.signal,
      (attempt) => {
        attempts.push(attempt);
        // Refused, the stranger leaves, and the real peer comes back.
        if (strangerMet && peerBack === undefined) {
          stranger.close();
          peerBack = reconnect(
            ports(),
            route(peer.pemFile),
            room,
            undefined,
            stop.signal,
            () => {},
          );
        }
      },
    );
    back.catch(() => undefined);
    try {
      const { channel, seat } = await back;
      expect(strangerMet).toBe(true);
      expect(channel.fingerprints()?.remote).toBe(peer.fingerprint);
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      channel.close(0);
      seat.close();
    } finally {
      stop.abort();
      stranger.close();
      await peerBack?.then(
        ({ channel, seat }) => {
          channel.close(0);
          seat.close();
        },
        () => undefined,
      );
    }
    // A try that met a stranger leaving mid-negotiation waits out a setup deadline (30 s) first.
  }, 120_000);
});
