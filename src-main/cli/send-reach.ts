import { findByName } from '../../src-shared/devices/remembered-devices';
import { SEND_TO_LOOK_MS } from '../../src-shared/nearby/nearby-limits';
import type { Reach } from '../../src-shared/nearby/nearby-ports';
import { ownNameOf, type DeviceProblem, type TransferSetup } from './cli-devices';
import { pairedDevices } from '../../src-shared/nearby/paired-devices';
import { lookFor, openPairRooms, openRoster } from './cli-nearby';
import { EXIT } from './exit-codes';
import { findInRoster, rosterHandle } from './roster-names';

/** How `send --to NAME` reaches NAME, and what to close once the send is over. */
export interface Reaching {
  reach: Reach;
  close(): void;
}

/**
 * Finds the device `send --to NAME` names (docs/architecture.md, "Nearby devices on the command
 * line"): a remembered device with a pair secret is invited through its pair room, pinned; any
 * other name is looked up on the server's roster and invited there, checked by the words (pinned
 * too when it is the name of a remembered device). Either must be online within SEND_TO_LOOK_MS.
 */
export async function reachByName(
  wanted: string,
  setup: TransferSetup,
  cancelled: AbortSignal,
): Promise<Reaching | DeviceProblem> {
  const remembered =
    setup.installation === undefined
      ? undefined
      : findByName(setup.installation.book.list(), wanted);
  const [paired] = pairedDevices(remembered === undefined ? [] : [remembered]);
  if (paired !== undefined) {
    const rooms = openPairRooms(setup, [paired]);
    const online = await lookFor(
      () => (rooms.online().has(paired.fingerprint) ? true : undefined),
      (changed) => rooms.onChange(changed),
      SEND_TO_LOOK_MS,
      cancelled,
    );
    if (online === undefined) {
      rooms.close();
      return notOnline(`“${paired.name}” is not online`);
    }
    return {
      reach: {
        name: paired.name,
        expectPeer: { fingerprint: paired.fingerprint, name: paired.name },
        deliver: (roomId) => rooms.invite(paired.fingerprint, roomId),
      },
      close: () => rooms.close(),
    };
  }
  const seat = await openRoster(setup, ownNameOf(setup), cancelled);
  if (seat === undefined) {
    return notOnline(
      remembered === undefined
        ? `“${wanted}” is not online / not known: no device is remembered by that name, and this server lists no devices`
        : `“${remembered.name}” is not online: it was remembered before devices could reach each other without a code; remember it again on a verified transfer, or send with --code`,
    );
  }
  const found = await lookFor(
    () => {
      const matches = findInRoster(seat.devices(), wanted);
      return matches.length === 0 ? undefined : matches;
    },
    (changed) => seat.onChange(changed),
    SEND_TO_LOOK_MS,
    cancelled,
  );
  const [device, ...others] = found ?? [];
  if (device === undefined || others.length > 0) {
    seat.close();
    if (device === undefined) {
      return notOnline(
        `“${wanted}” is not online / not known: no remembered device and no device in the room has that name`,
      );
    }
    const handles = [device, ...others].map((entry) => `  ${rosterHandle(entry)}`).join('\n');
    return {
      problem: `${found?.length ?? 0} devices in the room are named “${device.name}”; choose one with --to NAME#ID:\n${handles}`,
      exit: EXIT.usage,
    };
  }
  return {
    reach: {
      name: device.name,
      ...(remembered === undefined
        ? {}
        : { expectPeer: { fingerprint: remembered.fingerprint, name: remembered.name } }),
      deliver: async (roomId) => seat.invite(device.id, roomId),
    },
    close: () => seat.close(),
  };
}

function notOnline(problem: string): DeviceProblem {
  return { problem, exit: EXIT.notOnline };
}
