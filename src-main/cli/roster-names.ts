import { cleanDeviceName } from '../../src-shared/devices/device-name';
import type { DeviceKind, PresenceEntry } from '../../src-shared/nearby/nearby-ports';

const KIND_WORDS: Record<DeviceKind, string> = {
  desktop: 'desktop app',
  cli: 'command line',
  browser: 'browser',
};

/** A roster device as the command line shows it: `Bea phone (browser, #K3QZ7A)`. */
export function rosterLabel(entry: PresenceEntry): string {
  return `${entry.name} (${KIND_WORDS[entry.kind]}, #${entry.id})`;
}

/** `--to NAME#ID`'s way of naming one of several devices with one name. */
export function rosterHandle(entry: PresenceEntry): string {
  return `${entry.name}#${entry.id}`;
}

/**
 * The roster devices `wanted` names: by name, ignoring case as remembered names are, or by
 * `NAME#ID` as `rosterHandle` writes it (docs/architecture.md, "Nearby devices on the command
 * line"). Several mean the person must pick one by its id.
 */
export function findInRoster(
  devices: readonly PresenceEntry[],
  wanted: string,
): readonly PresenceEntry[] {
  const name = cleanDeviceName(wanted)?.toLowerCase();
  const byName = devices.filter((device) => device.name.toLowerCase() === name);
  if (byName.length > 0) return byName;
  const mark = wanted.lastIndexOf('#');
  if (mark < 0) return [];
  const stem = cleanDeviceName(wanted.slice(0, mark))?.toLowerCase();
  const id = wanted
    .slice(mark + 1)
    .trim()
    .toUpperCase();
  return devices.filter((device) => device.id === id && device.name.toLowerCase() === stem);
}
