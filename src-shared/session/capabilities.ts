import type { Capability } from '../protocol/messages';
import { canDigest } from '../verify/file-digest';

/** Every extension this build speaks (docs/protocol.md, "Capabilities"). */
export const FERRY_CAPABILITIES: readonly Capability[] = ['verify', 'resume', 'reconnect', 'list'];

/**
 * What this runtime can offer: every extension rests on content digests, so a browser page
 * without WebCrypto (plain http on a LAN address) offers none and speaks the spec's wire alone.
 */
export function offeredCapabilities(enabled = true): readonly Capability[] {
  return enabled && canDigest() ? FERRY_CAPABILITIES : [];
}
