import * as v from 'valibot';
import { REMOTE_FINGERPRINT_LINES_MAX } from '../protocol/limits';
import {
  fingerprintLineCount,
  fingerprintOfSdp,
  normalizeFingerprint,
  type PeerFingerprints,
} from './sas';

// Where a browser says which certificates DTLS used (docs/protocol.md, "Connection requirement"):
// its RTCTransportStats name them by id, and the RTCCertificateStats of those ids carry them.
const TRANSPORT = v.object({
  type: v.literal('transport'),
  remoteCertificateId: v.string(),
  localCertificateId: v.optional(v.string()),
});
const CERTIFICATE = v.object({
  type: v.literal('certificate'),
  fingerprint: v.string(),
  fingerprintAlgorithm: v.string(),
});

/** One entry of a browser's stats report, as `getStats()` yields it. */
export type StatsEntry = Record<string, unknown>;

/**
 * The two certificates of a connection whose channel is open. The remote one is the certificate
 * the transport's stats name, when they name one. A browser whose stats name none (Firefox ESR
 * 153 lists no certificates) has checked DTLS against its remote description; every Ferry
 * surface refused that description if it listed more than one certificate, so its single line is
 * the one used, and anything else is no reading. The local certificate is this side's own, from
 * the same stats or else from the description it wrote itself.
 */
export function certificatesInUse(
  stats: Iterable<StatsEntry>,
  descriptions: { localSdp: string; remoteSdp: string },
): PeerFingerprints | undefined {
  const byId = new Map<string, StatsEntry>();
  const transports: v.InferOutput<typeof TRANSPORT>[] = [];
  for (const entry of stats) {
    if (typeof entry.id === 'string') byId.set(entry.id, entry);
    const transport = v.safeParse(TRANSPORT, entry);
    if (transport.success) transports.push(transport.output);
  }
  const certificate = (id: string | undefined): string | undefined => {
    const read = v.safeParse(CERTIFICATE, id === undefined ? undefined : byId.get(id));
    return read.success
      ? normalizeFingerprint(read.output.fingerprintAlgorithm, read.output.fingerprint)
      : undefined;
  };
  const { localSdp, remoteSdp } = descriptions;
  let local: string | undefined;
  let remote: string | undefined;
  if (transports.length === 0) {
    local = fingerprintOfSdp(localSdp);
    remote =
      fingerprintLineCount(remoteSdp) === REMOTE_FINGERPRINT_LINES_MAX
        ? fingerprintOfSdp(remoteSdp)
        : undefined;
  } else {
    // One bundled transport carries Ferry's one channel; transports that disagree are no reading.
    const remotes = new Set(
      transports.map(({ remoteCertificateId }) => certificate(remoteCertificateId)),
    );
    const locals = new Set(
      transports.map(({ localCertificateId }) => certificate(localCertificateId)),
    );
    remote = remotes.size === 1 ? [...remotes][0] : undefined;
    const ownStats = locals.size === 1 ? [...locals][0] : undefined;
    local = ownStats ?? fingerprintOfSdp(localSdp);
  }
  return local === undefined || remote === undefined ? undefined : { local, remote };
}
