import {
  localPeerVersion,
  type PeerVersion,
} from '../../../src-shared/protocol/version-negotiation';

/**
 * A test seam: an end-to-end test sets this global (Playwright's addInitScript) to
 * `{ pv, pvMin }` to make the page advertise another protocol range, which is the only way to
 * show a version mismatch against peers built from the same source. It changes nothing but what
 * this page advertises, which a person could as well edit in the page's own devtools.
 */
export const PEER_VERSION_OVERRIDE = '__FERRY_PEER_VERSION__';

const isVersion = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** What this browser advertises: the build's protocol range, and no release string. */
export function browserPeerVersion(host: object = globalThis): PeerVersion {
  const override: unknown = Reflect.get(host, PEER_VERSION_OVERRIDE);
  if (typeof override === 'object' && override !== null) {
    const { pv, pvMin } = override as { pv?: unknown; pvMin?: unknown };
    if (isVersion(pv) && isVersion(pvMin) && pvMin <= pv) return { pv, pvMin };
  }
  return localPeerVersion();
}
