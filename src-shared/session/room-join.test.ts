import { describe, expect, it } from 'vitest';
import { ROLE_WAIT_TIMEOUT_MS } from '../protocol/limits';
import { SERVER_MESSAGE_MAX_CHARS } from '../signaling/limits';
import type { Clock, SignalingEvent, SignalingPort } from './ports';
import { joinRoom, type SeatSocketEvent } from './room-join';
import { ManualClock } from './testing/manual-clock';

const ROOM = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/** A socket the test speaks for: what it reports, what the seat sent, whether it was closed. */
function scriptedSocket() {
  const socket = {
    report: (_event: SeatSocketEvent): void => undefined,
    roomId: undefined as string | undefined,
    sent: [] as unknown[],
    closed: false,
  };
  const open = (roomId: string, report: (event: SeatSocketEvent) => void) => {
    socket.roomId = roomId;
    socket.report = report;
    return {
      signal: (payload: unknown) => socket.sent.push(payload),
      close: () => (socket.closed = true),
    };
  };
  return { socket, open };
}

/** The manual clock, counting the timers that are armed and neither fired nor cancelled. */
function countingClock(): Clock & { advance(ms: number): void; live(): number } {
  const manual = new ManualClock();
  const live = new Set<object>();
  return {
    now: () => manual.now(),
    setTimeout(callback, ms) {
      const token = {};
      live.add(token);
      const timer = manual.setTimeout(() => {
        live.delete(token);
        callback();
      }, ms);
      return {
        cancel: () => {
          live.delete(token);
          timer.cancel();
        },
        refresh: () => timer.refresh(),
      };
    },
    advance: (ms) => manual.advance(ms),
    live: () => live.size,
  };
}

function join(cancelled = new AbortController().signal) {
  const clock = countingClock();
  const { socket, open } = scriptedSocket();
  const joined = joinRoom({ clock, roleWaitMs: ROLE_WAIT_TIMEOUT_MS, open }, ROOM, cancelled);
  // Read below; a rejection is asserted there, not lost.
  joined.catch(() => undefined);
  return { clock, socket, joined };
}

function eventsOf(seat: SignalingPort): SignalingEvent[] {
  const events: SignalingEvent[] = [];
  seat.listen((event) => events.push(event));
  return events;
}

describe('joining a room', () => {
  it('gives the seat the server’s role, with what came before it kept for the core', async () => {
    const { socket, joined } = join();
    socket.report({ type: 'joining' });
    socket.report({ type: 'signal', payload: { sdp: 'offer' } });
    socket.report({ type: 'room-joined', role: 'receiver' });

    const seat = await joined;
    expect(socket.roomId).toBe(ROOM);
    expect(seat.role).toBe('receiver');
    expect(eventsOf(seat)).toEqual([{ type: 'signal', payload: { sdp: 'offer' } }]);
    seat.signal({ sdp: 'answer' });
    expect(socket.sent).toEqual([{ sdp: 'answer' }]);
  });

  it('fails a full room with ERR_ROOM_FULL and closes its socket', async () => {
    const { socket, joined } = join();
    socket.report({ type: 'joining' });
    socket.report({ type: 'room-full' });

    await expect(joined).rejects.toMatchObject({
      code: 'ERR_ROOM_FULL',
      message: 'this transfer already has two devices in it',
    });
    expect(socket.closed).toBe(true);
  });

  it('fails on the server’s error with its words after the sentence', async () => {
    const { socket, joined } = join();
    socket.report({ type: 'error', message: 'Invalid room ID' });

    await expect(joined).rejects.toMatchObject({
      code: 'ERR_SIGNALING_ERROR',
      message: 'the signaling server reported an error (Invalid room ID)',
    });
    expect(socket.closed).toBe(true);
  });

  it('shortens a long server message and replaces the control characters in it', async () => {
    const { socket, joined } = join();
    socket.report({ type: 'error', message: `\u001b[2J${'x'.repeat(5000)}` });

    const shown = `\ufffd[2J${'x'.repeat(SERVER_MESSAGE_MAX_CHARS - 4)}`;
    await expect(joined).rejects.toMatchObject({
      code: 'ERR_SIGNALING_ERROR',
      message: `the signaling server reported an error (${shown})`,
    });
  });

  it('fails when the socket cannot open, with the transport’s reason or a lost connection', async () => {
    const refused = join();
    refused.socket.report({ type: 'closed', reason: 'ECONNREFUSED' });
    await expect(refused.joined).rejects.toMatchObject({
      code: 'ERR_SIGNALING_UNREACHABLE',
      message: 'could not reach signaling server (ECONNREFUSED)',
    });

    const dropped = join();
    dropped.socket.report({ type: 'joining' });
    dropped.socket.report({ type: 'closed' });
    await expect(dropped.joined).rejects.toMatchObject({
      code: 'ERR_SIGNALING_UNREACHABLE',
      message: 'could not reach signaling server (the connection to it was lost)',
    });
  });

  it('waits ROLE_WAIT_TIMEOUT_MS for the role from join-room on, then fails with ERR_ROLE_TIMEOUT', async () => {
    const { clock, socket, joined } = join();
    // Connecting is the transport's to bound; the role wait starts once join-room is out.
    clock.advance(ROLE_WAIT_TIMEOUT_MS * 2);
    socket.report({ type: 'joining' });
    clock.advance(ROLE_WAIT_TIMEOUT_MS - 1);
    expect(socket.closed).toBe(false);

    clock.advance(1);
    await expect(joined).rejects.toMatchObject({ code: 'ERR_ROLE_TIMEOUT' });
    expect(socket.closed).toBe(true);
  });

  it('leaves no timer behind once the role has come (a process would stay up for it)', async () => {
    const { clock, socket, joined } = join();
    socket.report({ type: 'joining' });
    expect(clock.live()).toBe(1);
    socket.report({ type: 'room-joined', role: 'sender' });

    await joined;
    expect(clock.live()).toBe(0);
  });

  it('gives up with ERR_CANCELLED when cancelled, and closes the socket', async () => {
    const stop = new AbortController();
    const { socket, joined } = join(stop.signal);
    socket.report({ type: 'joining' });

    stop.abort();
    await expect(joined).rejects.toMatchObject({ code: 'ERR_CANCELLED' });
    expect(socket.closed).toBe(true);
  });

  it('opens no socket when already cancelled', async () => {
    const stop = new AbortController();
    stop.abort();
    const { socket, joined } = join(stop.signal);

    await expect(joined).rejects.toMatchObject({ code: 'ERR_CANCELLED' });
    expect(socket.roomId).toBeUndefined();
  });

  it('tells the core once that a given seat is lost, by a server error or a closed socket', async () => {
    const { socket, joined } = join();
    socket.report({ type: 'joining' });
    socket.report({ type: 'room-joined', role: 'sender' });
    const events = eventsOf(await joined);

    socket.report({ type: 'user-connected' });
    socket.report({ type: 'error', message: 'Not in a room' });
    socket.report({ type: 'closed' });
    expect(events).toEqual([
      { type: 'user-connected' },
      {
        type: 'lost',
        failure: {
          code: 'ERR_SIGNALING_ERROR',
          message: 'the signaling server reported an error (Not in a room)',
        },
      },
    ]);
  });

  it('reports nothing once the seat is closed, not even to a later listener', async () => {
    const { socket, joined } = join();
    socket.report({ type: 'joining' });
    socket.report({ type: 'room-joined', role: 'sender' });
    const seat = await joined;

    seat.close();
    socket.report({ type: 'peer-disconnected' });
    socket.report({ type: 'closed' });
    expect(socket.closed).toBe(true);
    expect(eventsOf(seat)).toEqual([]);
  });
});
