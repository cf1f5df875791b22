import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PresenceEntry } from '../../../src-shared/nearby/nearby-ports';
import {
  PRESENCE_INVITES_PER_WINDOW,
  PRESENCE_ROSTER_MAX,
} from '../../../src-shared/nearby/nearby-limits';
import { SocketIoPeer, WsPeer } from '../test-support/peers';
import { startTestServer } from '../test-support/test-server';

// docs/protocol.md, "Presence": the roster of the programs that asked to be listed, told to each
// of them (itself excluded) on every change, and invitations passed to one device alone.

/** What a listed program hears, in one shape for both transports. */
interface Heard {
  type: string;
  [field: string]: unknown;
}

/** A program on either transport, as the roster sees it. */
interface Listed {
  send(type: string, payload?: unknown): void;
  next(): Promise<Heard>;
  /** Everything the server sent before this has arrived once it resolves. */
  ping(): Promise<void>;
  pending(): Heard[];
  close(): void;
}

function wsListed(peer: WsPeer): Listed {
  return {
    send: (type, payload) =>
      peer.send(typeof payload === 'object' && payload !== null ? { ...payload, type } : { type }),
    next: async () => (await peer.next()) as Heard,
    ping: () => peer.ping(),
    pending: () => peer.inbox.pending() as Heard[],
    close: () => peer.close(),
  };
}

function socketListed(peer: SocketIoPeer): Listed {
  const heard = (event: { event: string; payload: unknown }): Heard => ({
    type: event.event,
    ...(event.payload as object),
  });
  return {
    send: (type, payload) =>
      payload === undefined ? peer.emitRaw(type) : peer.emitRaw(type, payload),
    next: async () => heard(await peer.next()),
    ping: () => peer.ping(),
    pending: () => peer.inbox.pending().map(heard),
    close: () => peer.close(),
  };
}

const TRANSPORTS = {
  ws: async (url: string) => wsListed(await WsPeer.connect(url)),
  'socket.io': async (url: string) => socketListed(await SocketIoPeer.connect(url)),
} as const;

type Transport = keyof typeof TRANSPORTS;

/** Joins the roster and returns the first roster heard. */
async function join(
  peer: Listed,
  name: string,
  kind = 'cli',
): Promise<{ self: string; devices: PresenceEntry[] }> {
  peer.send('presence-join', { name, kind });
  const roster = await peer.next();
  expect(roster.type).toBe('presence');
  return roster as unknown as { self: string; devices: PresenceEntry[] };
}

async function nextRoster(peer: Listed): Promise<PresenceEntry[]> {
  const roster = await peer.next();
  expect(roster.type).toBe('presence');
  return roster.devices as PresenceEntry[];
}

describe.each(Object.keys(TRANSPORTS) as Transport[])('presence over %s', (transport) => {
  const connect = TRANSPORTS[transport];

  it('lists every other program with the id the server drew, and drops a closed one at once', async () => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    const cy = await connect(server.url);

    const anaJoined = await join(ana, "Ana's laptop", 'desktop');
    expect(anaJoined.devices).toEqual([]);
    expect(anaJoined.self).toMatch(/^[A-Z2-7]{6}$/);
    const boJoined = await join(bo, 'Firefox on Linux', 'browser');
    const anaEntry = { id: anaJoined.self, name: "Ana's laptop", kind: 'desktop' };
    const boEntry = { id: boJoined.self, name: 'Firefox on Linux', kind: 'browser' };
    expect(boJoined.devices).toEqual([anaEntry]);
    expect(await nextRoster(ana)).toEqual([boEntry]);

    const cyJoined = await join(cy, 'build box');
    const cyEntry = { id: cyJoined.self, name: 'build box', kind: 'cli' };
    expect(new Set([anaJoined.self, boJoined.self, cyJoined.self]).size).toBe(3);
    expect(cyJoined.devices).toEqual([anaEntry, boEntry]);
    expect(await nextRoster(ana)).toEqual([boEntry, cyEntry]);
    expect(await nextRoster(bo)).toEqual([anaEntry, cyEntry]);

    bo.close();
    expect(await nextRoster(ana)).toEqual([cyEntry]);
    expect(await nextRoster(cy)).toEqual([anaEntry]);
  });

  it('takes a program off the roster on presence-leave, and its socket still serves rooms', async () => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    await join(ana, 'Ana');
    await join(bo, 'Bo');
    await nextRoster(ana);

    bo.send('presence-leave');
    expect(await nextRoster(ana)).toEqual([]);
    bo.send('join-room', transport === 'ws' ? { roomId: randomUUID() } : undefined);
    await bo.ping();
    expect(bo.pending().filter((heard) => heard.type.startsWith('presence'))).toEqual([]);
  });

  it('a second presence-join renames the device and keeps its id', async () => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    await join(ana, 'Ana');
    const { self } = await join(bo, 'Bo');
    await nextRoster(ana);

    bo.send('presence-join', { name: 'Bo upstairs', kind: 'cli' });
    expect(await nextRoster(ana)).toEqual([{ id: self, name: 'Bo upstairs', kind: 'cli' }]);
    expect(await bo.next()).toMatchObject({ type: 'presence', self });
  });

  it('cleans a name as every surface does', async () => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    await join(ana, 'Ana');
    await join(bo, `  Bo\u200b's\n\tphone ${'x'.repeat(100)}`);

    const [listed] = await nextRoster(ana);
    expect(listed.name).toBe(`Bo's phone ${'x'.repeat(53)}`);
  });

  it.each([
    ['a name of only spaces', { name: ' \n ', kind: 'cli' }, 'Invalid device name'],
    ['a name that is a number', { name: 7, kind: 'cli' }, 'Invalid device name'],
    ['no name', { kind: 'cli' }, 'Invalid message'],
    ['an unknown kind', { name: 'Ana', kind: 'toaster' }, 'Invalid message'],
    ['no payload', undefined, 'Invalid message'],
  ])('answers a join with %s with an error and lists nobody', async (_case, payload, message) => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    await join(ana, 'Ana');

    bo.send('presence-join', payload);
    expect(await bo.next()).toEqual({ type: 'error', message });
    await ana.ping();
    expect(ana.pending()).toEqual([]);
  });

  it('passes an invitation to the one device it names, with who sent it', async () => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    const cy = await connect(server.url);
    const anaJoined = await join(ana, 'Ana', 'desktop');
    const { self: bo_ } = await join(bo, 'Bo');
    await join(cy, 'Cy');
    const roomId = randomUUID();

    ana.send('presence-invite', { to: bo_, roomId });
    expect(await bo.next()).toMatchObject({ type: 'presence' }); // Cy joined
    expect(await bo.next()).toEqual({
      type: 'presence-invite',
      from: { id: anaJoined.self, name: 'Ana', kind: 'desktop' },
      roomId,
    });
    await cy.ping();
    expect(cy.pending().filter((heard) => heard.type === 'presence-invite')).toEqual([]);
  });

  it.each([
    [
      'a device not on the roster',
      (self: string) => ({ to: 'AAAAAA', roomId: randomUUID(), self }),
      'No such device on the presence roster',
    ],
    [
      'itself',
      (self: string) => ({ to: self, roomId: randomUUID() }),
      'No such device on the presence roster',
    ],
    [
      'a room id that is no UUID',
      (self: string) => ({ to: self, roomId: 'lobby' }),
      'Invalid room ID',
    ],
    ['no target', () => ({ roomId: randomUUID() }), 'Invalid message'],
  ])('refuses an invitation to %s', async (_case, invitation, message) => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const { self } = await join(ana, 'Ana');

    ana.send('presence-invite', invitation(self));
    expect(await ana.next()).toEqual({ type: 'error', message });
  });

  it('refuses an invitation from a program that is not listed', async () => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    const { self } = await join(ana, 'Ana');

    bo.send('presence-invite', { to: self, roomId: randomUUID() });
    expect(await bo.next()).toEqual({ type: 'error', message: 'Not on the presence roster' });
    await ana.ping();
    expect(ana.pending()).toEqual([]);
  });

  it(`passes ${PRESENCE_INVITES_PER_WINDOW} invitations a minute from one device, and refuses the next`, async () => {
    const server = await startTestServer({ presence: true });
    const ana = await connect(server.url);
    const bo = await connect(server.url);
    await join(ana, 'Ana');
    const { self } = await join(bo, 'Bo');
    await nextRoster(ana);

    for (let sent = 0; sent < PRESENCE_INVITES_PER_WINDOW; sent += 1) {
      ana.send('presence-invite', { to: self, roomId: randomUUID() });
    }
    for (let sent = 0; sent < PRESENCE_INVITES_PER_WINDOW; sent += 1) {
      expect(await bo.next()).toMatchObject({ type: 'presence-invite' });
    }
    ana.send('presence-invite', { to: self, roomId: randomUUID() });
    expect(await ana.next()).toEqual({ type: 'error', message: 'Too many invitations' });
  });
});

describe('the roster limit and the two transports together', () => {
  it('a program on /ws and a page on the event socket see each other', async () => {
    const server = await startTestServer({ presence: true });
    const cli = await TRANSPORTS.ws(server.url);
    const page = await TRANSPORTS['socket.io'](server.url);
    const { self: cliId } = await join(cli, 'build box', 'cli');
    const { self: pageId, devices } = await join(page, 'Firefox on Linux', 'browser');

    expect(devices).toEqual([{ id: cliId, name: 'build box', kind: 'cli' }]);
    expect(await nextRoster(cli)).toEqual([
      { id: pageId, name: 'Firefox on Linux', kind: 'browser' },
    ]);
    const roomId = randomUUID();
    page.send('presence-invite', { to: cliId, roomId });
    expect(await cli.next()).toMatchObject({
      type: 'presence-invite',
      from: { id: pageId },
      roomId,
    });
  });

  it(`lists ${PRESENCE_ROSTER_MAX} programs and refuses one more`, async () => {
    const server = await startTestServer({ presence: true, maxConnectionsPerIp: 1000 });
    const listed: Listed[] = [];
    const ids: string[] = [];
    for (let at = 0; at < PRESENCE_ROSTER_MAX; at += 1) {
      const peer = await TRANSPORTS.ws(server.url);
      ids.push((await join(peer, `device ${at}`)).self);
      listed.push(peer);
    }
    const late = await TRANSPORTS.ws(server.url);
    late.send('presence-join', { name: 'one too many', kind: 'cli' });
    expect(await late.next()).toEqual({ type: 'error', message: 'Presence roster full' });

    listed[0].close();
    // The second device hears a roster with the first once the server has let it go.
    let roster = await nextRoster(listed[1]);
    while (roster.some((device) => device.id === ids[0])) roster = await nextRoster(listed[1]);
    late.send('presence-join', { name: 'one too many', kind: 'cli' });
    expect(await nextRoster(late)).toHaveLength(PRESENCE_ROSTER_MAX - 1);
  });
});

describe('a server without presence (the default)', () => {
  it.each(['presence-join', 'presence-invite', 'presence-leave'])(
    'answers %s on /ws exactly like a message of an unknown type, and lists nobody',
    async (type) => {
      const server = await startTestServer();
      const ana = await WsPeer.connect(server.url);
      const bo = await WsPeer.connect(server.url);
      ana.send({ type: 'leave-everything' });
      const unknown = await ana.next();

      for (const peer of [ana, bo]) {
        peer.send({ type, name: 'Ana', kind: 'cli', to: 'AAAAAA', roomId: randomUUID() });
        expect(await peer.next()).toEqual(unknown);
        await peer.ping();
        expect(peer.inbox.pending()).toEqual([]);
      }
    },
  );

  it.each(['presence-join', 'presence-invite', 'presence-leave'])(
    'answers %s on the event socket exactly like an unknown event, and lists nobody',
    async (type) => {
      const server = await startTestServer();
      const ana = await SocketIoPeer.connect(server.url);
      const bo = await SocketIoPeer.connect(server.url);
      ana.emitRaw('leave-everything', {});
      const unknown = await ana.next();

      for (const peer of [ana, bo]) {
        peer.emitRaw(type, { name: 'Ana', kind: 'cli', to: 'AAAAAA', roomId: randomUUID() });
        expect(await peer.next()).toEqual(unknown);
        await peer.ping();
        expect(peer.inbox.pending()).toEqual([]);
      }
    },
  );
});
