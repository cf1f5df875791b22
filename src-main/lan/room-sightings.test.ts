import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_DISCOVERED_ROOMS, ROOM_SIGHTING_MAX_MS } from '../../src-shared/lan/limits';
import type { MdnsResponse } from './mdns-socket';
import { ROOM_SERVICE } from './room-records';
import { RoomSightings } from './room-sightings';

type DnsRecord = MdnsResponse['answers'][number];

/** What a responder at `address` sends for a room named `name`: pointer and TXT together. */
function announcement(name: string, address: string, port = 3001, ttl = 4_500): DnsRecord[] {
  const instance = `${name}.${ROOM_SERVICE}`;
  return [
    { name: ROOM_SERVICE, type: 'PTR', ttl, data: instance },
    {
      name: instance,
      type: 'TXT',
      ttl,
      data: [Buffer.from(`url=http://${address}:${port}`), Buffer.from('pv=1')],
    },
  ];
}

const goodbye = (name: string, address: string) => announcement(name, address, 3001, 0);

const sightings: RoomSightings[] = [];

function track(onExpired = () => {}): RoomSightings {
  const table = new RoomSightings(onExpired);
  sightings.push(table);
  return table;
}

afterEach(() => {
  sightings.splice(0).forEach((table) => table.clear());
  vi.useRealTimers();
});

describe('rooms two hosts announce under the same name', () => {
  it('lists them as two rooms, one per sender address', () => {
    const table = track();
    table.read(announcement('Ferry room', '192.168.1.20'), '192.168.1.20');
    table.read(announcement('Ferry room', '192.168.1.31'), '192.168.1.31');
    expect(table.rooms().map(({ name, url }) => ({ name, url }))).toEqual([
      { name: 'Ferry room', url: 'http://192.168.1.20:3001' },
      { name: 'Ferry room', url: 'http://192.168.1.31:3001' },
    ]);
  });

  it("keeps one room when the other host says goodbye, and never takes the other's TXT record", () => {
    const table = track();
    table.read(announcement('Ferry room', '192.168.1.20'), '192.168.1.20');
    table.read(announcement('Ferry room', '192.168.1.31'), '192.168.1.31');
    table.read(goodbye('Ferry room', '192.168.1.31'), '192.168.1.31');
    expect(table.rooms().map((room) => room.url)).toEqual(['http://192.168.1.20:3001']);

    // A TXT record from another sender for the same name changes nothing of this room.
    table.read(announcement('Ferry room', '192.168.1.20').slice(1), '192.168.1.31');
    expect(table.rooms().map((room) => room.url)).toEqual(['http://192.168.1.20:3001']);
  });
});

describe('a network that announces more rooms than a list can hold', () => {
  it(`keeps the first ${MAX_DISCOVERED_ROOMS} and ignores the rest until some leave`, () => {
    const table = track();
    const flood = Array.from({ length: MAX_DISCOVERED_ROOMS + 8 }, (_, index) => `Room ${index}`);
    for (const name of flood) table.read(announcement(name, '192.168.1.66'), '192.168.1.66');
    expect(table.rooms()).toHaveLength(MAX_DISCOVERED_ROOMS);
    expect(table.read(announcement('Late', '192.168.1.20'), '192.168.1.20')).toEqual([]);
    expect(table.rooms().some((room) => room.name === 'Late')).toBe(false);

    table.read(goodbye('Room 0', '192.168.1.66'), '192.168.1.66');
    table.read(announcement('Late', '192.168.1.20'), '192.168.1.20');
    expect(table.rooms()).toHaveLength(MAX_DISCOVERED_ROOMS);
    expect(table.rooms().some((room) => room.name === 'Late')).toBe(true);
  });

  it('refreshes a room it already lists even when the list is full', () => {
    const table = track();
    for (let index = 0; index < MAX_DISCOVERED_ROOMS; index += 1) {
      table.read(announcement(`Room ${index}`, '192.168.1.66', 3001 + index), '192.168.1.66');
    }
    table.read(announcement('Room 0', '192.168.1.66', 4000), '192.168.1.66');
    expect(table.rooms().find((room) => room.name === 'Room 0')?.url).toBe(
      'http://192.168.1.66:4000',
    );
  });
});

describe('how long a room is believed', () => {
  it('drops a room whose host vanished without a goodbye, whatever lifetime it claimed', () => {
    vi.useFakeTimers();
    const expired = vi.fn();
    const table = track(expired);
    table.read(announcement('Ferry room', '192.168.1.20', 3001, 4_500), '192.168.1.20');
    vi.advanceTimersByTime(ROOM_SIGHTING_MAX_MS - 1);
    expect(table.rooms()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(table.rooms()).toEqual([]);
    expect(expired).toHaveBeenCalledOnce();
  });

  it('asks for the TXT record of a room announced without one', () => {
    const table = track();
    const pointerOnly = announcement('Ferry room', '192.168.1.20').slice(0, 1);
    expect(table.read(pointerOnly, '192.168.1.20')).toEqual([`Ferry room.${ROOM_SERVICE}`]);
    expect(table.rooms()).toEqual([]);
  });
});
