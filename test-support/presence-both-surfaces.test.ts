import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openNativePresence } from '../src-main/engine';
import { startLoopbackServer } from '../src-main/engine/test-support/loopback-server';
import type { RunningServer } from '../src-main/signaling-server';
import { openBrowserPresence } from '../src-renderer/backend/browser/browser-presence';
import type {
  OpenPresence,
  PresenceEntry,
  PresenceInvite,
  PresenceSeat,
} from '../src-shared/nearby/nearby-ports';

// docs/protocol.md, "Presence": the native adapter (/ws) and the page's (event socket) are the same
// seat over different transports, against a real server on loopback.

const servers = new Set<RunningServer>();
const seats = new Set<PresenceSeat>();

afterEach(async () => {
  for (const seat of seats) seat.close();
  seats.clear();
  await Promise.all([...servers].map((server) => server.close()));
  servers.clear();
});

async function server(presence: boolean): Promise<RunningServer> {
  const running = await startLoopbackServer({ presence });
  servers.add(running);
  return running;
}

const SURFACES = {
  native: (url: string) => openNativePresence(url),
  browser: (url: string) => openBrowserPresence(url),
} satisfies Record<string, (url: string) => OpenPresence>;

type Surface = keyof typeof SURFACES;

async function seatOn(
  surface: Surface,
  url: string,
  name: string,
  kind: PresenceEntry['kind'],
): Promise<PresenceSeat> {
  const seat = await SURFACES[surface](url)({ name, kind }, new AbortController().signal);
  if (seat === undefined) throw new Error(`${surface} got no seat`);
  seats.add(seat);
  return seat;
}

/** The next roster `seat` hears that satisfies `wanted`. */
function rosterWhere(
  seat: PresenceSeat,
  wanted: (devices: readonly PresenceEntry[]) => boolean,
): Promise<readonly PresenceEntry[]> {
  if (wanted(seat.devices())) return Promise.resolve(seat.devices());
  return new Promise((resolve) => {
    const stop = seat.onChange((devices) => {
      if (!wanted(devices)) return;
      stop();
      resolve(devices);
    });
  });
}

function nextInvite(seat: PresenceSeat): Promise<PresenceInvite> {
  return new Promise((resolve) => {
    const stop = seat.onInvite((invite) => {
      stop();
      resolve(invite);
    });
  });
}

const PAIRS: [Surface, Surface][] = [
  ['native', 'browser'],
  ['browser', 'native'],
  ['native', 'native'],
  ['browser', 'browser'],
];

describe.each(PAIRS)('a %s seat and a %s seat', (first, second) => {
  it('see each other, pass an invitation, and see a closed seat go', async () => {
    const { url } = await server(true);
    const ana = await seatOn(first, url, "Ana's laptop", 'desktop');
    const bo = await seatOn(second, url, '  Bo\n', 'browser');

    expect(bo.devices()).toEqual([{ id: ana.self, name: "Ana's laptop", kind: 'desktop' }]);
    expect(await rosterWhere(ana, (devices) => devices.length > 0)).toEqual([
      { id: bo.self, name: 'Bo', kind: 'browser' },
    ]);

    const roomId = randomUUID();
    const invited = nextInvite(ana);
    bo.invite(ana.self, roomId);
    expect(await invited).toEqual({ from: { id: bo.self, name: 'Bo', kind: 'browser' }, roomId });

    bo.close();
    await bo.ended;
    expect(await rosterWhere(ana, (devices) => devices.length === 0)).toEqual([]);
  });
});

describe.each(Object.keys(SURFACES) as Surface[])('the %s adapter', (surface) => {
  it('gives no seat when the server keeps no roster', async () => {
    const { url } = await server(false);

    expect(
      await SURFACES[surface](url)({ name: 'Ana', kind: 'cli' }, new AbortController().signal),
    ).toBe(undefined);
  });

  it('gives no seat when no server answers', async () => {
    const { url } = await server(true);
    await [...servers][0].close();
    servers.clear();

    expect(
      await SURFACES[surface](url)({ name: 'Ana', kind: 'cli' }, new AbortController().signal),
    ).toBe(undefined);
  });

  it('ends the seat when the server goes away', async () => {
    const running = await server(true);
    const seat = await seatOn(surface, running.url, 'Ana', 'cli');
    servers.delete(running);
    await running.close();

    await seat.ended;
    expect(seat.devices()).toEqual([]);
  });

  it('closes the seat when its signal is aborted', async () => {
    const { url } = await server(true);
    const watcher = await seatOn('native', url, 'watcher', 'cli');
    const cancel = new AbortController();
    const seat = await SURFACES[surface](url)({ name: 'Ana', kind: 'cli' }, cancel.signal);
    expect(seat).toBeDefined();
    await rosterWhere(watcher, (devices) => devices.length === 1);

    cancel.abort();
    await seat?.ended;
    expect(await rosterWhere(watcher, (devices) => devices.length === 0)).toEqual([]);
  });
});
