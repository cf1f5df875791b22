import { PROTOCOL_VERSION, PROTOCOL_VERSION_MIN } from './limits';
import type { VersionAdvert } from './messages';

/** What this side advertises: both numbers always present, the release string when there is one. */
export interface PeerVersion {
  pv: number;
  pvMin: number;
  ver?: string;
}

/** This build's advert; `ver` is the release string of the surface, omitted by browsers. */
export function localPeerVersion(ver?: string): PeerVersion {
  const local: PeerVersion = { pv: PROTOCOL_VERSION, pvMin: PROTOCOL_VERSION_MIN };
  if (ver !== undefined) local.ver = ver;
  return local;
}

export interface VersionRange {
  min: number;
  max: number;
}

/** Peers before 1.6.0 send neither field; each absent one reads as version 1. */
export function advertisedRange(advert: VersionAdvert): VersionRange {
  return { min: advert.pvMin ?? 1, max: advert.pv ?? 1 };
}

/**
 * `outdated` names the side that must update: `local` when the other side's minimum is above
 * everything this side speaks, otherwise `remote`.
 */
export type Negotiation =
  { compatible: true; version: number } | { compatible: false; outdated: 'local' | 'remote' };

/** Compatible when max(localMin, remoteMin) <= min(localMax, remoteMax); the highest common version wins. */
export function negotiateVersion(local: VersionAdvert, remote: VersionAdvert): Negotiation {
  const mine = advertisedRange(local);
  const theirs = advertisedRange(remote);
  const floor = Math.max(mine.min, theirs.min);
  const ceiling = Math.min(mine.max, theirs.max);
  if (floor <= ceiling) return { compatible: true, version: ceiling };
  return { compatible: false, outdated: theirs.min > mine.max ? 'local' : 'remote' };
}
