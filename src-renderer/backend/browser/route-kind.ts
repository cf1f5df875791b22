/** Reads the selected candidate pair: a relay candidate on either end means the route is TURN. */
export async function isRelayed(pc: RTCPeerConnection): Promise<boolean> {
  try {
    const stats = await pc.getStats();
    const byId = new Map<string, Record<string, unknown>>();
    stats.forEach((report: Record<string, unknown>) => byId.set(String(report.id), report));
    for (const report of byId.values()) {
      if (report.type !== 'transport' || typeof report.selectedCandidatePairId !== 'string')
        continue;
      const pair = byId.get(report.selectedCandidatePairId);
      const local = byId.get(String(pair?.localCandidateId));
      const remote = byId.get(String(pair?.remoteCandidateId));
      return local?.candidateType === 'relay' || remote?.candidateType === 'relay';
    }
  } catch {
    // No stats: the relay cap then does not apply, as on a route that is not relayed.
  }
  return false;
}
