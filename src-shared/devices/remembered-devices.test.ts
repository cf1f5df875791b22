import { describe, expect, it } from 'vitest';
import { REMEMBERED_DEVICES_MAX } from '../protocol/limits';
import {
  DeviceListError,
  findByName,
  forget,
  readStoredDevices,
  remember,
  rename,
  setAutoAccept,
  type RememberedDevice,
} from './remembered-devices';

const fingerprint = (byte: number): string =>
  `sha-256 ${Array.from({ length: 32 }, () => byte.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
const ANA = fingerprint(1);
const BEA = fingerprint(2);

describe('the list of remembered devices', () => {
  it('remembers a device once: remembering it again renames it and keeps its auto-accept', () => {
    let devices = remember([], ANA, ' Ana  laptop ', 5);
    expect(devices).toEqual([
      { fingerprint: ANA, name: 'Ana laptop', autoAccept: false, rememberedAt: 5 },
    ]);
    devices = setAutoAccept(devices, ANA, true);
    devices = remember(devices, ANA, 'Ana desk', 9);
    expect(devices).toEqual([
      { fingerprint: ANA, name: 'Ana desk', autoAccept: true, rememberedAt: 5 },
    ]);
  });

  it('keeps names unique ignoring case, since the command line picks a device by name', () => {
    const devices = remember([], ANA, 'Ana', 1);
    expect(() => remember(devices, BEA, 'ANA', 2)).toThrow(
      new DeviceListError('another device is remembered as “Ana”'),
    );
    expect(() => rename(remember(devices, BEA, 'Bea', 2), BEA, ' ana')).toThrow(DeviceListError);
    expect(findByName(devices, '  aNa ')?.fingerprint).toBe(ANA);
  });

  it('refuses an empty name, a change to a device it does not know, and one device past the cap', () => {
    expect(() => remember([], ANA, ' \u200b ', 1)).toThrow('a device needs a name');
    expect(() => rename([], ANA, 'Ana')).toThrow('that device is not remembered');
    expect(() => setAutoAccept([], ANA, true)).toThrow('that device is not remembered');
    const full: RememberedDevice[] = Array.from({ length: REMEMBERED_DEVICES_MAX }, (_, i) => ({
      fingerprint: fingerprint(i + 3),
      name: `Device ${i}`,
      autoAccept: false,
      rememberedAt: 0,
    }));
    expect(() => remember(full, ANA, 'Ana', 1)).toThrow(`${REMEMBERED_DEVICES_MAX} devices`);
  });

  it('keeps the pair secret it was remembered with, the newest one on remembering again, and forgets it with the device', () => {
    const first = 'ab'.repeat(32);
    const second = 'cd'.repeat(32);
    let devices = remember([], ANA, 'Ana', 1, first);
    expect(devices[0]?.pairSecret).toBe(first);
    // Renaming keeps it; remembering again without one keeps it too.
    devices = remember(rename(devices, ANA, 'Ana desk'), ANA, 'Ana desk', 2);
    expect(devices[0]?.pairSecret).toBe(first);
    devices = remember(devices, ANA, 'Ana desk', 3, second);
    expect(devices[0]?.pairSecret).toBe(second);
    expect(forget(devices, ANA)).toEqual([]);
  });

  it('reads an entry from before pair rooms, and drops a damaged pair secret without the device', () => {
    const old = { fingerprint: ANA, name: 'Ana', autoAccept: false, rememberedAt: 1 };
    const paired = { fingerprint: BEA, name: 'Bea', autoAccept: true, rememberedAt: 2 };
    const secret = 'ef'.repeat(32);
    const read = readStoredDevices([
      old,
      { ...paired, pairSecret: secret },
      { fingerprint: fingerprint(3), name: 'Cy', pairSecret: 'not hex' },
    ]);
    expect(read).toEqual([
      old,
      { ...paired, pairSecret: secret },
      { fingerprint: fingerprint(3), name: 'Cy', autoAccept: false, rememberedAt: 0 },
    ]);
  });

  it('forgets a device, and only that one', () => {
    const devices = remember(remember([], ANA, 'Ana', 1), BEA, 'Bea', 2);
    expect(forget(devices, ANA).map((device) => device.name)).toEqual(['Bea']);
  });

  it('reads a stored list entry by entry: a damaged entry costs only itself', () => {
    const stored = [
      { fingerprint: ANA.toLowerCase(), name: 'Ana', autoAccept: true, rememberedAt: 3 },
      { fingerprint: 'sha-256 nothex', name: 'Broken' },
      { fingerprint: BEA, name: '   ' },
      { fingerprint: BEA, name: 'Bea', autoAccept: 'yes' },
      'not a device',
    ];
    expect(readStoredDevices(stored)).toEqual([
      { fingerprint: ANA, name: 'Ana', autoAccept: true, rememberedAt: 3 },
      { fingerprint: BEA, name: 'Bea', autoAccept: false, rememberedAt: 0 },
    ]);
    expect(readStoredDevices({ devices: [] })).toEqual([]);
  });
});
