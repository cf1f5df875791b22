import { describe, expect, it } from 'vitest';
import type { PresenceEntry } from '../../src-shared/nearby/nearby-ports';
import { findInRoster, rosterHandle, rosterLabel } from './roster-names';

const bea: PresenceEntry = { id: 'K3QZ7A', name: 'Bea phone', kind: 'browser' };
const beaToo: PresenceEntry = { id: 'M2XW4B', name: 'bea PHONE', kind: 'desktop' };
const cli: PresenceEntry = { id: 'Q7RS2C', name: 'Ana laptop', kind: 'cli' };

describe('the roster as the command line names it', () => {
  it('shows each device with its kind and short id, and a handle --to takes', () => {
    expect(rosterLabel(bea)).toBe('Bea phone (browser, #K3QZ7A)');
    expect(rosterLabel(cli)).toBe('Ana laptop (command line, #Q7RS2C)');
    expect(rosterLabel(beaToo)).toBe('bea PHONE (desktop app, #M2XW4B)');
    expect(rosterHandle(bea)).toBe('Bea phone#K3QZ7A');
  });

  it('finds a device by its name ignoring case, all of those with one name, or one by NAME#ID', () => {
    const roster = [bea, beaToo, cli];
    expect(findInRoster(roster, ' ana  LAPTOP ')).toEqual([cli]);
    expect(findInRoster(roster, 'Bea phone')).toEqual([bea, beaToo]);
    expect(findInRoster(roster, 'Bea phone#m2xw4b')).toEqual([beaToo]);
    expect(findInRoster(roster, rosterHandle(bea))).toEqual([bea]);
    // The id alone, or an id under another name, names nobody.
    expect(findInRoster(roster, '#K3QZ7A')).toEqual([]);
    expect(findInRoster(roster, 'Ana laptop#K3QZ7A')).toEqual([]);
    expect(findInRoster(roster, 'Cem')).toEqual([]);
  });
});
