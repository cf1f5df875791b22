import { describe, expect, it } from 'vitest';
import type {
  PairedDevice,
  PairRooms,
  PresenceEntry,
  PresenceIntro,
  PresenceInvite,
  PresenceSeat,
} from '../nearby/nearby-ports';
import { NEARBY_GONE_SHOWN_MS, NEARBY_PRESENCE_RETRY_MS } from '../nearby/nearby-limits';
import { ManualClock } from '../session/testing/manual-clock';
import { NearbyCore, type NearbyInvite, type NearbyView } from './nearby-core';

// The nearby layer's rules over an in-memory roster and pair rooms; the real server and rooms
// run in the e2e specs (e2e/nearby-*.spec.ts).

class MemorySeat implements PresenceSeat {
  readonly self = 'me0001';
  readonly invites: { to: string; roomId: string }[] = [];
  #devices: readonly PresenceEntry[] = [];
  readonly #change = new Set<(devices: readonly PresenceEntry[]) => void>();
  readonly #invite = new Set<(invite: PresenceInvite) => void>();
  #end!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.#end = resolve));
  constructor(readonly intro: PresenceIntro) {}
  devices(): readonly PresenceEntry[] {
    return this.#devices;
  }
  onChange(listener: (devices: readonly PresenceEntry[]) => void): () => void {
    this.#change.add(listener);
    return () => this.#change.delete(listener);
  }
  onInvite(listener: (invite: PresenceInvite) => void): () => void {
    this.#invite.add(listener);
    return () => this.#invite.delete(listener);
  }
  invite(to: string, roomId: string): void {
    this.invites.push({ to, roomId });
  }
  close(): void {
    this.#end();
  }
  /** The server tells a new roster. */
  roster(devices: PresenceEntry[]): void {
    this.#devices = devices;
    for (const listener of this.#change) listener(devices);
  }
  invited(invite: PresenceInvite): void {
    for (const listener of this.#invite) listener(invite);
  }
}

class MemoryPairRooms implements PairRooms {
  readonly invites: { fingerprint: string; roomId: string }[] = [];
  devices: readonly PairedDevice[] = [];
  closed = false;
  #online: ReadonlySet<string> = new Set();
  readonly #change = new Set<(online: ReadonlySet<string>) => void>();
  readonly #invite = new Set<(invite: { device: PairedDevice; roomId: string }) => void>();
  online(): ReadonlySet<string> {
    return this.#online;
  }
  onChange(listener: (online: ReadonlySet<string>) => void): () => void {
    this.#change.add(listener);
    return () => this.#change.delete(listener);
  }
  onInvite(listener: (invite: { device: PairedDevice; roomId: string }) => void): () => void {
    this.#invite.add(listener);
    return () => this.#invite.delete(listener);
  }
  async invite(fingerprint: string, roomId: string): Promise<void> {
    this.invites.push({ fingerprint, roomId });
  }
  update(devices: readonly PairedDevice[]): void {
    this.devices = devices;
  }
  close(): void {
    this.closed = true;
  }
  setOnline(fingerprints: string[]): void {
    this.#online = new Set(fingerprints);
    for (const listener of this.#change) listener(this.#online);
  }
  invited(device: PairedDevice, roomId: string): void {
    for (const listener of this.#invite) listener({ device, roomId });
  }
}

const ANA: PairedDevice = {
  fingerprint: 'AA:BB',
  name: "Ana's laptop",
  pairSecret: 'a'.repeat(64),
};
const PHONE: PresenceEntry = { id: 'ph0001', name: 'Firefox on Android', kind: 'browser' };
const CLI: PresenceEntry = { id: 'cl0001', name: 'build-box', kind: 'cli' };

function harness(options: { presence?: boolean; pair?: boolean } = {}) {
  const clock = new ManualClock();
  const seats: MemorySeat[] = [];
  const pairRooms = new MemoryPairRooms();
  const views: NearbyView[] = [];
  const invites: NearbyInvite[] = [];
  let busy = false;
  let presenceOn = options.presence ?? true;
  let failNext = false;
  const core = new NearbyCore(
    {
      intro: { name: 'This page', kind: 'browser' },
      clock,
      busy: () => busy,
      ...(options.pair === false ? {} : { pairRooms }),
      openPresence: async (intro) => {
        if (failNext) {
          failNext = false;
          throw new Error('socket refused');
        }
        if (!presenceOn) return undefined;
        const seat = new MemorySeat(intro);
        seats.push(seat);
        return seat;
      },
    },
    { view: (view) => views.push(view), invited: (invite) => invites.push(invite) },
  );
  const last = (): NearbyView => core.view;
  return {
    core,
    clock,
    seats,
    pairRooms,
    views,
    invites,
    last,
    setBusy: (value: boolean) => (busy = value),
    presenceOff: () => (presenceOn = false),
    presenceOn: () => (presenceOn = true),
    failNextOpen: () => (failNext = true),
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('NearbyCore', () => {
  it('lists the roster, each device with its name, kind and short id', async () => {
    const h = harness();
    await h.core.start();
    expect(h.last().inRoom).toBe(true);
    expect(h.seats[0]?.intro).toEqual({ name: 'This page', kind: 'browser' });
    h.seats[0]?.roster([PHONE, CLI]);
    expect(h.last().devices).toEqual([
      {
        key: 'room:ph0001',
        name: PHONE.name,
        kind: 'browser',
        shortId: 'ph0001',
        via: 'room',
        online: true,
      },
      {
        key: 'room:cl0001',
        name: 'build-box',
        kind: 'cli',
        shortId: 'cl0001',
        via: 'room',
        online: true,
      },
    ]);
  });

  it('shows nothing and no roster where the server keeps none', async () => {
    const h = harness();
    h.presenceOff();
    await h.core.start();
    expect(h.last()).toEqual({ devices: [], inRoom: false });
    h.clock.advance(NEARBY_PRESENCE_RETRY_MS * 3);
    await settle();
    expect(h.seats).toHaveLength(0);
  });

  it('lists online paired devices, and a remembered device met on the roster once, by its remembered name', async () => {
    const h = harness();
    await h.core.start();
    h.core.paired([ANA]);
    expect(h.pairRooms.devices).toEqual([ANA]);
    expect(h.last().devices).toEqual([]);
    h.pairRooms.setOnline([ANA.fingerprint]);
    h.seats[0]?.roster([{ id: 'an0001', name: "ana's  laptop", kind: 'desktop' }, CLI]);
    expect(h.last().devices.map(({ key, name, kind }) => ({ key, name, kind }))).toEqual([
      { key: 'pair:AA:BB', name: "Ana's laptop", kind: 'remembered' },
      { key: 'room:cl0001', name: 'build-box', kind: 'cli' },
    ]);
  });

  it('greys out a device that left for a while, then drops it', async () => {
    const h = harness();
    await h.core.start();
    h.seats[0]?.roster([PHONE, CLI]);
    h.seats[0]?.roster([CLI]);
    expect(h.last().devices.map((d) => [d.key, d.online])).toEqual([
      ['room:ph0001', false],
      ['room:cl0001', true],
    ]);
    h.clock.advance(NEARBY_GONE_SHOWN_MS - 1);
    expect(h.last().devices).toHaveLength(2);
    h.clock.advance(1);
    expect(h.last().devices.map((d) => d.key)).toEqual(['room:cl0001']);
  });

  it('takes a device back in its place when it returns while greyed out', async () => {
    const h = harness();
    await h.core.start();
    h.seats[0]?.roster([PHONE, CLI]);
    h.seats[0]?.roster([CLI]);
    h.seats[0]?.roster([CLI, PHONE]);
    h.clock.advance(NEARBY_GONE_SHOWN_MS);
    expect(h.last().devices.map((d) => [d.key, d.online])).toEqual([
      ['room:ph0001', true],
      ['room:cl0001', true],
    ]);
  });

  it('refuses to reach a device that left, naming it', async () => {
    const h = harness();
    await h.core.start();
    h.seats[0]?.roster([PHONE]);
    h.seats[0]?.roster([]);
    const reach = h.core.reachFor('room:ph0001');
    expect(reach).toEqual({
      code: 'ERR_DEVICE_GONE',
      message:
        'Firefox on Android is no longer nearby; choose another device, or send with a code.',
    });
    expect('code' in h.core.reachFor('room:nobody')).toBe(true);
  });

  it('reaches a roster device by an invitation through the seat, unpinned', async () => {
    const h = harness();
    await h.core.start();
    h.seats[0]?.roster([PHONE]);
    const reach = h.core.reachFor('room:ph0001');
    if ('code' in reach) throw new Error(reach.message);
    expect(reach.name).toBe(PHONE.name);
    expect(reach.expectPeer).toBeUndefined();
    await reach.deliver('room-1', new AbortController().signal);
    expect(h.seats[0]?.invites).toEqual([{ to: 'ph0001', roomId: 'room-1' }]);
    h.seats[0]?.roster([]);
    await expect(reach.deliver('room-2', new AbortController().signal)).rejects.toThrow(
      /no longer nearby/,
    );
  });

  it('reaches a paired device through its pair room, pinned to its certificate', async () => {
    const h = harness();
    await h.core.start();
    h.core.paired([ANA]);
    h.pairRooms.setOnline([ANA.fingerprint]);
    const reach = h.core.reachFor('pair:AA:BB');
    if ('code' in reach) throw new Error(reach.message);
    expect(reach.expectPeer).toEqual({ fingerprint: 'AA:BB', name: "Ana's laptop" });
    await reach.deliver('room-1', new AbortController().signal);
    expect(h.pairRooms.invites).toEqual([{ fingerprint: 'AA:BB', roomId: 'room-1' }]);
  });

  it('passes invitations on, a paired one pinned, and ignores any while a transfer runs', async () => {
    const h = harness();
    await h.core.start();
    h.seats[0]?.invited({ from: PHONE, roomId: 'room-1' });
    h.pairRooms.invited(ANA, 'room-2');
    h.setBusy(true);
    h.seats[0]?.invited({ from: CLI, roomId: 'room-3' });
    h.pairRooms.invited(ANA, 'room-4');
    expect(h.invites).toEqual([
      { roomId: 'room-1', from: PHONE.name },
      {
        roomId: 'room-2',
        from: ANA.name,
        expectPeer: { fingerprint: ANA.fingerprint, name: ANA.name },
      },
    ]);
  });

  it('takes its seat again after a lost socket, and at once under a new name', async () => {
    const h = harness();
    h.failNextOpen();
    await h.core.start();
    expect(h.last().inRoom).toBe(false);
    h.clock.advance(NEARBY_PRESENCE_RETRY_MS);
    await settle();
    expect(h.last().inRoom).toBe(true);
    h.seats[0]?.roster([PHONE]);
    h.seats[0]?.close();
    await settle();
    expect(h.last()).toEqual({
      devices: [{ ...h.last().devices[0], online: false }],
      inRoom: false,
    });
    h.clock.advance(NEARBY_PRESENCE_RETRY_MS);
    await settle();
    expect(h.seats).toHaveLength(2);
    h.core.introduce({ name: 'Renamed page', kind: 'browser' });
    await settle();
    expect(h.seats.map((seat) => seat.intro.name)).toEqual([
      'This page',
      'This page',
      'Renamed page',
    ]);
  });

  it('takes one seat, under the name given before it started', async () => {
    const h = harness();
    // A page reads the name its person gave it before it starts: one program, one seat.
    h.core.introduce({ name: 'Named page', kind: 'browser' });
    await h.core.start();
    await settle();
    expect(h.seats.map((seat) => seat.intro.name)).toEqual(['Named page']);
  });

  it('leaves the roster and the pair rooms on close', async () => {
    const h = harness();
    await h.core.start();
    h.core.close();
    await settle();
    h.clock.advance(NEARBY_PRESENCE_RETRY_MS * 2);
    await settle();
    expect(h.seats).toHaveLength(1);
    expect(h.pairRooms.closed).toBe(true);
  });

  it('asks for a seat at once on rejoin, even after a server that kept no roster, and drops a stale one', async () => {
    const h = harness();
    h.presenceOff();
    await h.core.start();
    expect(h.last().inRoom).toBe(false);
    // The desktop app starts hosting its LAN room, whose server keeps a roster.
    h.presenceOn();
    h.core.rejoin();
    await settle();
    expect(h.seats).toHaveLength(1);
    expect(h.last().inRoom).toBe(true);
    h.seats[0]?.roster([PHONE]);
    // Another server chosen: one seat there, and the one left is not taken again later.
    h.core.rejoin();
    await settle();
    h.clock.advance(NEARBY_PRESENCE_RETRY_MS * 2);
    await settle();
    expect(h.seats).toHaveLength(2);
    expect(h.last().inRoom).toBe(true);
    // It stops hosting: the seat held is left, and none is asked for until the next rejoin.
    h.presenceOff();
    h.core.rejoin();
    await settle();
    h.clock.advance(NEARBY_PRESENCE_RETRY_MS * 2);
    await settle();
    expect(h.seats).toHaveLength(2);
    expect(h.last()).toEqual({ devices: [], inRoom: false });
  });
});
