import type { OfferView } from '../transfer/transfer-view';
import type { DeviceDirectory } from './remembered-devices';

const GiB = 1024 ** 3;

/**
 * The largest batch a remembered device's quick save takes without asking, unless the person
 * sets another in Settings: a day's photos pass, a stranger's disk-filler does not
 * (docs/protocol.md, "Remembered devices").
 */
export const AUTO_ACCEPT_DEFAULT_MAX_BYTES = 2 * GiB;

/** The highest cap Settings takes: any batch a file system can hold. */
export const AUTO_ACCEPT_MAX_BYTES_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * Only a remembered device the person set to auto-accept skips the question, and only for a
 * batch of at most `maxBytes`; a larger one is asked about as usual.
 */
export function autoAccepts(devices: DeviceDirectory, offer: OfferView, maxBytes: number): boolean {
  const check = offer.peerCheck;
  return (
    check.kind === 'device' &&
    devices.find(check.fingerprint)?.autoAccept === true &&
    offer.totalBytes <= maxBytes
  );
}
