import { CAPABILITIES, type Capability } from '../protocol/messages';

/** Every extension this build speaks (docs/protocol.md, "Capabilities"). */
export const FERRY_CAPABILITIES: readonly Capability[] = CAPABILITIES;

/**
 * What this runtime can offer. Every extension rests on SHA-256 and HMAC (content digests, the
 * verification words, the link proof), which every runtime has: WebCrypto where it exists, else
 * JavaScript (hash-functions.ts), so a page on plain http offers as much as one on https.
 */
export function offeredCapabilities(
  enabled = true,
  runtime: { lanes: boolean } = { lanes: false },
): readonly Capability[] {
  if (!enabled) return [];
  // `lanes` needs a runtime that can open more connections for the session (docs/protocol.md,
  // "Lanes"): the native peers, and a page that receives (it answers lanes, never stripes).
  // `lane-mtu` (answering a lane's probe) belongs to it.
  return runtime.lanes
    ? FERRY_CAPABILITIES
    : FERRY_CAPABILITIES.filter((cap) => cap !== 'lanes' && cap !== 'lane-mtu');
}
