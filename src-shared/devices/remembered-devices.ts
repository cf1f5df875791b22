import * as v from 'valibot';
import { REMEMBERED_DEVICES_MAX } from '../protocol/limits';
import { normalizeFingerprint } from '../verify/sas';
import { cleanDeviceName } from './device-name';
import { PairSecretSchema } from '../nearby/pair-secret';

/**
 * A device this installation remembers (docs/protocol.md, "Remembered devices"): known by the
 * fingerprint of its persistent DTLS certificate, shown by the name a person gave it.
 */
export interface RememberedDevice {
  /** Normalized as verify/sas.ts writes it: `sha-256 AB:CD:…`. */
  fingerprint: string;
  name: string;
  /** The desktop app accepts this device's offers into the download folder without asking. */
  autoAccept: boolean;
  /** When it was remembered, in milliseconds since the epoch. */
  rememberedAt: number;
  /**
   * The secret agreed with it in-band beside `pair`, 64 lowercase hex: its pair room and
   * invitations derive from it (docs/protocol.md, "Pair rooms"). Forgetting the device deletes it.
   */
  pairSecret?: string;
}

/** Looks a connection's remote fingerprint up among the remembered devices. */
export interface DeviceDirectory {
  find(fingerprint: string): RememberedDevice | undefined;
}

export function directoryOf(devices: readonly RememberedDevice[]): DeviceDirectory {
  return { find: (fingerprint) => devices.find((device) => device.fingerprint === fingerprint) };
}

const FINGERPRINT = v.pipe(
  v.string(),
  v.transform((text) => {
    const [algorithm = '', value = ''] = text.split(' ');
    return normalizeFingerprint(algorithm, value);
  }),
  v.string('fingerprint is not `algorithm HEX:HEX:…`'),
);

const NAME = v.pipe(v.string(), v.transform(cleanDeviceName), v.string('name is empty'));

const DEVICE = v.pipe(
  v.object({
    fingerprint: FINGERPRINT,
    name: NAME,
    autoAccept: v.fallback(v.boolean(), false),
    rememberedAt: v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
    // An entry from before pair rooms has none; a damaged one is dropped, not the device.
    pairSecret: v.fallback(v.optional(PairSecretSchema), undefined),
  }),
  v.transform(({ pairSecret, ...device }): RememberedDevice =>
    pairSecret === undefined ? device : { ...device, pairSecret },
  ),
);

/**
 * A stored list as read back from disk or IndexedDB: entries that do not read are dropped one by
 * one, so one damaged entry costs only itself; a list that is no list reads as empty.
 */
export const storedDevicesSchema = v.fallback(
  v.pipe(
    v.array(v.unknown()),
    v.transform((entries) =>
      entries.flatMap((entry) => {
        const read = v.safeParse(DEVICE, entry);
        return read.success ? [read.output] : [];
      }),
    ),
  ),
  [],
);

export function readStoredDevices(stored: unknown): RememberedDevice[] {
  return v.parse(storedDevicesSchema, stored).slice(0, REMEMBERED_DEVICES_MAX);
}

/** Why a change to the list cannot be made, in words for the person who asked. */
export class DeviceListError extends Error {}

/**
 * The list with `fingerprint` remembered as `name`: a device remembered already is renamed, its
 * auto-accept kept. Names are unique, ignoring case, since the command line picks devices by name.
 * `pairSecret`, the one agreed on the connection that is remembered, replaces any kept before:
 * both sides keep the newest they agreed (docs/protocol.md, "Pair rooms").
 */
export function remember(
  devices: readonly RememberedDevice[],
  fingerprint: string,
  rawName: string,
  now: number,
  pairSecret?: string,
): RememberedDevice[] {
  const name = checkedName(devices, fingerprint, rawName);
  const secret = pairSecret === undefined ? {} : { pairSecret };
  const known = devices.find((device) => device.fingerprint === fingerprint);
  if (known !== undefined) {
    return update(devices, fingerprint, (device) => ({ ...device, name, ...secret }));
  }
  if (devices.length >= REMEMBERED_DEVICES_MAX) {
    throw new DeviceListError(
      `${REMEMBERED_DEVICES_MAX} devices are remembered already; forget one first`,
    );
  }
  return [...devices, { fingerprint, name, autoAccept: false, rememberedAt: now, ...secret }];
}

export function rename(
  devices: readonly RememberedDevice[],
  fingerprint: string,
  rawName: string,
): RememberedDevice[] {
  const name = checkedName(devices, fingerprint, rawName);
  return update(devices, fingerprint, (device) => ({ ...device, name }));
}

export function setAutoAccept(
  devices: readonly RememberedDevice[],
  fingerprint: string,
  autoAccept: boolean,
): RememberedDevice[] {
  return update(devices, fingerprint, (device) => ({ ...device, autoAccept }));
}

export function forget(
  devices: readonly RememberedDevice[],
  fingerprint: string,
): RememberedDevice[] {
  return devices.filter((device) => device.fingerprint !== fingerprint);
}

/** The device a person named, ignoring case and surrounding spaces. */
export function findByName(
  devices: readonly RememberedDevice[],
  rawName: string,
): RememberedDevice | undefined {
  const wanted = cleanDeviceName(rawName)?.toLowerCase();
  return devices.find((device) => device.name.toLowerCase() === wanted);
}

function update(
  devices: readonly RememberedDevice[],
  fingerprint: string,
  change: (device: RememberedDevice) => RememberedDevice,
): RememberedDevice[] {
  if (!devices.some((device) => device.fingerprint === fingerprint)) {
    throw new DeviceListError('that device is not remembered');
  }
  return devices.map((device) => (device.fingerprint === fingerprint ? change(device) : device));
}

function checkedName(
  devices: readonly RememberedDevice[],
  fingerprint: string,
  rawName: string,
): string {
  const name = cleanDeviceName(rawName);
  if (name === undefined) throw new DeviceListError('a device needs a name');
  const holder = findByName(devices, name);
  if (holder !== undefined && holder.fingerprint !== fingerprint) {
    throw new DeviceListError(`another device is remembered as “${holder.name}”`);
  }
  return name;
}
