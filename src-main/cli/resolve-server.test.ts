import { describe, expect, it } from 'vitest';
import type { LanRoom } from '../lan/room-browser';
import { EXIT } from './exit-codes';
import { chooseLanRoom } from './resolve-server';

const room = (name: string, url: string): LanRoom => ({ name, url, pv: 1, pvMin: 1 });

describe('what --lan does with the rooms that answered', () => {
  it('goes on with the only room', () => {
    expect(chooseLanRoom([room('Ferry room', 'http://192.168.1.20:3001')])).toBe(
      'http://192.168.1.20:3001',
    );
  });

  it('refuses to pick one of two rooms, even of the same name, and lists both', () => {
    const choice = chooseLanRoom([
      room('Ferry room', 'http://192.168.1.20:3001'),
      room('Ferry room', 'http://192.168.1.66:3001'),
    ]);
    expect(choice).toEqual({
      problem:
        '2 LAN rooms answered on this network, so --lan will not pick one. Choose the room with --server <url>:\n' +
        '  Ferry room  http://192.168.1.20:3001\n' +
        '  Ferry room  http://192.168.1.66:3001',
      exit: EXIT.usage,
    });
  });

  it('says so when no room answered', () => {
    expect(chooseLanRoom([])).toMatchObject({
      problem: expect.stringContaining('No LAN room was found on this network'),
      exit: EXIT.unreachable,
    });
  });
});
