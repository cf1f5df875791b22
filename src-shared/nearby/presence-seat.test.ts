import { describe, expect, it } from 'vitest';
import { ManualClock } from '../session/testing/manual-clock';
import { PRESENCE_JOIN_TIMEOUT_MS } from './nearby-limits';
import { openPresenceSeat, type PresenceSocketEvent } from './presence-seat';
import type { PresenceClientMessage } from './presence-wire';

// The seat's own rules (docs/protocol.md, "Presence"), over a socket the test plays the server of.
// The adapters against a real server: test-support/presence-both-surfaces.test.ts.

function scriptedSocket() {
  const sent: PresenceClientMessage[] = [];
  let report: (event: PresenceSocketEvent) => void = () => undefined;
  const socket = {
    sent,
    closed: false,
    hear: (event: PresenceSocketEvent) => report(event),
    open: (listener: (event: PresenceSocketEvent) => void) => {
      report = listener;
      return {
        send: (message: PresenceClientMessage) => void sent.push(message),
        close: () => {
          socket.closed = true;
        },
      };
    },
  };
  return socket;
}

const INTRO = { name: ' Ana\n', kind: 'cli' } as const;
const ANA = { id: 'AAAAAA', name: 'Ana', kind: 'cli' };
const BO = { id: 'BBBBBB', name: 'Bo', kind: 'browser' };

describe('a presence seat', () => {
  it('sends the cleaned name once the socket is open', async () => {
    const clock = new ManualClock();
    const socket = scriptedSocket();
    const opening = openPresenceSeat(
      { clock, open: socket.open },
      INTRO,
      new AbortController().signal,
    );

    socket.hear({ type: 'open' });
    socket.hear({ type: 'message', name: 'presence', payload: { self: ANA.id, devices: [BO] } });

    expect(socket.sent).toEqual([{ type: 'presence-join', name: 'Ana', kind: 'cli' }]);
    const seat = await opening;
    expect(seat?.self).toBe(ANA.id);
    expect(seat?.devices()).toEqual([BO]);
  });

  it(`gives up when no roster comes within ${PRESENCE_JOIN_TIMEOUT_MS} ms`, async () => {
    const clock = new ManualClock();
    const socket = scriptedSocket();
    const opening = openPresenceSeat(
      { clock, open: socket.open },
      INTRO,
      new AbortController().signal,
    );
    socket.hear({ type: 'open' });

    clock.advance(PRESENCE_JOIN_TIMEOUT_MS - 1);
    expect(socket.closed).toBe(false);
    clock.advance(1);
    expect(await opening).toBeUndefined();
    expect(socket.closed).toBe(true);
  });

  it('gives up at once when the server answers with an error', async () => {
    const socket = scriptedSocket();
    const opening = openPresenceSeat(
      { clock: new ManualClock(), open: socket.open },
      INTRO,
      new AbortController().signal,
    );
    socket.hear({ type: 'open' });
    socket.hear({ type: 'message', name: 'error', payload: { message: 'Unknown message type' } });

    expect(await opening).toBeUndefined();
    expect(socket.closed).toBe(true);
  });

  it('ignores a malformed roster, keeps the last good one, and ends when the socket closes', async () => {
    const socket = scriptedSocket();
    const opening = openPresenceSeat(
      { clock: new ManualClock(), open: socket.open },
      INTRO,
      new AbortController().signal,
    );
    socket.hear({ type: 'open' });
    socket.hear({ type: 'message', name: 'presence', payload: { self: 7, devices: [] } });
    socket.hear({ type: 'message', name: 'presence', payload: { self: ANA.id, devices: [] } });
    const seat = await opening;
    const heard: unknown[] = [];
    seat?.onChange((devices) => heard.push(devices));

    socket.hear({
      type: 'message',
      name: 'presence',
      payload: { self: ANA.id, devices: [{ id: 'X' }] },
    });
    socket.hear({ type: 'message', name: 'presence', payload: { self: ANA.id, devices: [BO] } });
    socket.hear({ type: 'closed' });
    await seat?.ended;

    expect(heard).toEqual([[BO]]);
    seat?.invite(BO.id, '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b');
    expect(socket.sent).toHaveLength(1);
  });
});
