import { CAPABILITIES, type Capability } from '../protocol/messages';
import { canDigest } from '../verify/file-digest';

/** Every extension this build speaks (docs/protocol.md, "Capabilities"). */
export const FERRY_CAPABILITIES: readonly Capability[] = CAPABILITIES;

/**
 * What this runtime can offer: every extension rests on WebCrypto's SHA-256 (content digests,
 * the verification words), so a browser page without it (plain http on a LAN address) offers
 * none and speaks the spec's wire alone.
 */
export function offeredCapabilities(
  enabled = true,
  runtime: { lanes: boolean } = { lanes: false },
): readonly Capability[] {
  if (!enabled || !canDigest()) return [];
  // `lanes` needs a runtime that can open more connections for the session (docs/protocol.md,
  // "Lanes"): the native peers, and a page that receives (it answers lanes, never stripes).
  // `lane-mtu` (answering a lane's probe) belongs to it.
  return runtime.lanes
    ? FERRY_CAPABILITIES
    : FERRY_CAPABILITIES.filter((cap) => cap !== 'lanes' && cap !== 'lane-mtu');
}
