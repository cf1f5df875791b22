import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canUseNetns,
  createNetnsPair,
  typeScriptArgs,
  type NetnsHost,
  type NetnsPair,
  type NetnsProcess,
} from '../../e2e/support/netns';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_MIN } from '../../src-shared/protocol/limits';
import { skipLine } from '../../test-support/required-tools';
import { DEFAULT_ROOM_NAME, type LanRoom } from './room-records';

// Multicast never reaches the host's real network from here: both devices live in namespaces
// this test creates, joined only to each other.
const netnsUsable = await canUseNetns();
const SUITE = 'rooms on a LAN of two namespaces (needs root and ip netns)';
// Namespaces need root and iproute2, which no CI promises: a skip here is never a failure, but
// it always says why. Straight to stdout, as test-support/vitest-tools.ts does.
if (!netnsUsable) {
  process.stdout.write(
    `${skipLine('needs root and ip netns (apt-get install iproute2; run as root)', `src-main/lan/room-discovery.test.ts › ${SUITE}`)}\n`,
  );
}

function program(host: NetnsHost, file: string, ...args: string[]) {
  const script = fileURLToPath(new URL(`./test-support/${file}`, import.meta.url));
  return host.spawn(process.execPath, typeScriptArgs(script, ...args));
}

function listed(line: string, prefix: string): LanRoom[] {
  return JSON.parse(line.slice(prefix.length)) as LanRoom[];
}

/** The browser's latest list, once `done` holds for it. */
async function latestListing(
  browser: NetnsProcess,
  done: (rooms: LanRoom[]) => boolean,
  timeoutMs: number,
): Promise<LanRoom[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = browser
      .transcript()
      .split('\n')
      .filter((line) => line.startsWith('rooms '))
      .at(-1);
    const rooms = last === undefined ? [] : listed(last, 'rooms ');
    if (done(rooms)) return rooms;
    if (Date.now() > deadline) throw new Error(`no such list: ${browser.transcript()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!netnsUsable)(SUITE, () => {
  let lan: NetnsPair;

  beforeEach(async () => {
    lan = await createNetnsPair();
  });

  afterEach(async () => {
    await lan.destroy();
  });

  it('lists a room announced on the other device, and drops it at once when it closes', async () => {
    const browser = program(lan.b, 'browse-rooms-process.ts', lan.b.address);
    await browser.waitForLine('browsing');
    const announcer = program(
      lan.a,
      'announce-room-process.ts',
      lan.a.address,
      '3001',
      'Ferry on a',
    );

    const appeared = await browser.waitForLine(`http://${lan.a.address}:3001`);
    expect(listed(appeared, 'rooms ')).toEqual([
      {
        name: 'Ferry on a',
        url: `http://${lan.a.address}:3001`,
        pv: PROTOCOL_VERSION,
        pvMin: PROTOCOL_VERSION_MIN,
      },
    ]);

    expect(await announcer.stop('SIGTERM')).toBe(0);
    await announcer.waitForLine('withdrawn');
    // Far inside the records' two-minute lifetime: the goodbye removed it, not expiry.
    await browser.waitForLine(/^rooms \[\]$/, 5_000);
    expect(await browser.stop('SIGTERM')).toBe(0);
  });

  it('finds a room that was announced before the search began, under a name that names no one', async () => {
    const announcer = program(lan.a, 'announce-room-process.ts', lan.a.address, '3002');
    await announcer.waitForLine('announced');

    const finder = program(lan.b, 'find-rooms-process.ts', lan.b.address, '60000', '500');
    // Well before its 60 s limit: the search ends half a second after the first room.
    expect(await finder.waitForExit(15_000)).toBe(0);
    const found = listed(await finder.waitForLine('found '), 'found ');
    expect(found).toEqual([
      expect.objectContaining({ name: DEFAULT_ROOM_NAME, url: `http://${lan.a.address}:3002` }),
    ]);
  });

  it('lists two hosts announcing the same name as two rooms, and one leaving keeps the other', async () => {
    const browser = program(lan.b, 'browse-rooms-process.ts', lan.b.address);
    await browser.waitForLine('browsing');
    const first = program(lan.a, 'announce-room-process.ts', lan.a.address, '3001', 'Studio');
    const second = program(lan.b, 'announce-room-process.ts', lan.b.address, '3002', 'Studio');
    // The responders probe the name, and the one that loses the tie-break takes the next.
    const names = await Promise.all(
      [first, second].map(async (announcer) => {
        const line = await announcer.waitForLine('announced', 20_000);
        return (JSON.parse(line.slice('announced '.length)) as { name: string }).name;
      }),
    );
    expect(names.sort()).toEqual(['Studio', 'Studio (2)']);

    const both = await browser.waitForLine(/^rooms \[\{[^{}]*\},\{[^{}]*\}\]$/, 10_000);
    expect(
      listed(both, 'rooms ')
        .map((room) => room.url)
        .sort(),
    ).toEqual([`http://${lan.a.address}:3001`, `http://${lan.b.address}:3002`]);

    expect(await first.stop('SIGTERM')).toBe(0);
    await first.waitForLine('withdrawn');
    // Far inside the records' lifetime: the goodbye removed one room, and only that one.
    const left = await latestListing(browser, (rooms) => rooms.length < 2, 5_000);
    expect(left.map((room) => room.url)).toEqual([`http://${lan.b.address}:3002`]);
    expect(await browser.stop('SIGTERM')).toBe(0);
  });

  it('finds a room hosted on the same device', async () => {
    const announcer = program(lan.a, 'announce-room-process.ts', lan.a.address, '3003', 'Here');
    await announcer.waitForLine('announced');

    const finder = program(lan.a, 'find-rooms-process.ts', lan.a.address, '60000', '500');
    expect(await finder.waitForExit(15_000)).toBe(0);
    const found = listed(await finder.waitForLine('found '), 'found ');
    expect(found.map((room) => room.name)).toEqual(['Here']);
  });

  it('returns no rooms when none is announced, and the search exits by itself at its deadline', async () => {
    const finder = program(lan.b, 'find-rooms-process.ts', lan.b.address, '1500');
    expect(await finder.waitForExit(15_000)).toBe(0);
    expect(await finder.waitForLine('found ')).toBe('found []');
  });

  it('refuses to announce on an address this device does not have', async () => {
    const announcer = program(lan.a, 'announce-room-process.ts', '10.231.0.77', '3001');
    expect(await announcer.waitForLine('failed')).toBe('failed ERR_LAN_DISCOVERY_UNAVAILABLE');
    expect(await announcer.waitForExit()).toBe(1);
  });
});
