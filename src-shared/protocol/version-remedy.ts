import { displayReason } from './display-reason';
import type { VersionAdvert } from './messages';
import type { Refusal } from './refusal';
import { advertisedRange, negotiateVersion } from './version-negotiation';

/** Where the message is shown, which decides how a person updates Ferry there. */
export type RemedySurface = 'cli' | 'desktop' | 'browser';

export const CLI_UPDATE_COMMAND = 'npm install -g ferry@latest';

const UPDATE_HERE: Record<RemedySurface, string> = {
  cli: `update Ferry on this device with: ${CLI_UPDATE_COMMAND}`,
  desktop: 'download the latest Ferry desktop app from the Ferry download page',
  browser: 'refresh this page to load the latest Ferry',
};

/**
 * The version message this side shows, rebuilt from the two advertised ranges and never from a
 * wire reason, which may come from a peer that predates the convention. Both release strings are
 * printed when known, so a person can tell which device is older.
 */
export function versionRemedy(
  local: VersionAdvert,
  remote: VersionAdvert,
  surface: RemedySurface,
): string {
  const here = describe('this device', local);
  const there = describe('the other device', remote);
  return localMustUpdate(local, remote)
    ? `${here} is too old for ${there}: ${UPDATE_HERE[surface]}`
    : `${there} is too old for ${here}: Ferry must be updated on the other device`;
}

/**
 * The `incompatible` reason sent to the peer, worded from the recipient's viewpoint ("your
 * device") and naming no surface, because the sender cannot know how the recipient updates.
 */
export function versionReasonForPeer(local: VersionAdvert, remote: VersionAdvert): string {
  const yours = describe('your device', remote);
  const ours = describe('the other device', local);
  return localMustUpdate(local, remote)
    ? `${ours} is too old for ${yours}: Ferry must be updated on the other device`
    : `${yours} is too old for ${ours}: update Ferry on your device`;
}

function localMustUpdate(local: VersionAdvert, remote: VersionAdvert): boolean {
  const negotiation = negotiateVersion(local, remote);
  return !negotiation.compatible && negotiation.outdated === 'local';
}

function describe(who: string, advert: VersionAdvert): string {
  const { min, max } = advertisedRange(advert);
  const versions = min === max ? `protocol ${max}` : `protocols ${min} to ${max}`;
  // The release string is the peer's own text: shown with the same care as an abort reason.
  const release = advert.ver === undefined ? '' : `, Ferry ${displayReason(advert.ver)}`;
  return `${who} (${versions}${release})`;
}

/**
 * The abort when the peer's range misses this side's (data-channel-protocol.md, "Versioning"):
 * the remedy for this surface locally, and the peer's own wording in `incompatible`. Undefined
 * when the ranges overlap.
 */
export function versionRefusal(
  local: VersionAdvert,
  remote: VersionAdvert,
  surface: RemedySurface,
): Refusal | undefined {
  if (negotiateVersion(local, remote).compatible) return undefined;
  return {
    failure: { code: 'ERR_INCOMPATIBLE_VERSION', message: versionRemedy(local, remote, surface) },
    reason: versionReasonForPeer(local, remote),
  };
}
