import { localPeerVersion, type PeerVersion } from '../../src-shared/protocol';
import type { PeerOptions } from './engine-options';

/** What this peer advertises: this build's protocol range unless the options say otherwise. */
export function localVersion(options: PeerOptions): PeerVersion {
  const local = localPeerVersion(options.ver);
  if (options.protocolVersion !== undefined) {
    local.pv = options.protocolVersion.pv;
    local.pvMin = options.protocolVersion.pvMin;
  }
  return local;
}
