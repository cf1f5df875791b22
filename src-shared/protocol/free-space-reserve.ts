import { FREE_SPACE_RESERVE_MIN_BYTES, FREE_SPACE_RESERVE_SHARE } from './limits';

/**
 * What a receiver leaves free on a volume of `volumeBytes` (docs/protocol.md, "Free space"):
 * FREE_SPACE_RESERVE_MIN_BYTES, or FREE_SPACE_RESERVE_SHARE of the volume when that is more.
 */
export function freeSpaceReserve(volumeBytes: number): number {
  return Math.max(FREE_SPACE_RESERVE_MIN_BYTES, Math.ceil(volumeBytes * FREE_SPACE_RESERVE_SHARE));
}
