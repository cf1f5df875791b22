import type { Capability } from '../protocol/messages';
import type { PeerCheck, PeerSummary } from '../transfer/transfer-view';
import type { PeerFingerprints } from '../verify/sas';
import type { PeerProgram } from './peer-program';
import type { DeviceDirectory, RememberedDevice } from './remembered-devices';

/**
 * What a session knows of this installation's identity (docs/protocol.md, "Remembered
 * devices"): the name it announces beside `device`, and the devices it remembers. A runtime
 * without a persistent certificate gives none, and then offers no `device`.
 */
export interface DeviceSetting {
  ownName: string;
  directory: DeviceDirectory;
}

/** The extensions a session offers: `device` and `pair` only with an identity to announce. */
export function capsWithIdentity(
  caps: readonly Capability[] | undefined,
  devices: DeviceSetting | undefined,
): readonly Capability[] | undefined {
  // The pair secret is kept with a remembered device, so it needs an identity too.
  return devices === undefined ? caps?.filter((cap) => cap !== 'device' && cap !== 'pair') : caps;
}

/** The remembered device on the other end of this connection, if it is one. */
export function rememberedPeer(
  devices: DeviceSetting | undefined,
  prints: PeerFingerprints | undefined,
): RememberedDevice | undefined {
  return prints === undefined ? undefined : devices?.directory.find(prints.remote);
}

/**
 * The check a person sees: a remembered device is named and verified without comparing
 * anything; the words stay beside it for a person on the other end who asks for them.
 */
export function checkWithDevice(
  check: PeerCheck | undefined,
  remembered: RememberedDevice | undefined,
): PeerCheck | undefined {
  if (remembered === undefined || check === undefined) return check;
  return {
    kind: 'device',
    name: remembered.name,
    fingerprint: remembered.fingerprint,
    ...(check.kind === 'words' ? { words: check.words } : {}),
  };
}

/** Who was on the other end of a finished transfer, for "Remember this device as". */
export function peerSummary(
  prints: PeerFingerprints | undefined,
  check: PeerCheck | undefined,
  announcedName: string | undefined,
  program?: PeerProgram,
  pairSecret?: string,
): PeerSummary | undefined {
  if (prints === undefined) return undefined;
  return {
    fingerprint: prints.remote,
    check: check ?? { kind: 'unverified' },
    ...(announcedName === undefined ? {} : { announcedName }),
    ...(program === undefined ? {} : { program }),
    ...(pairSecret === undefined ? {} : { pairSecret }),
  };
}
