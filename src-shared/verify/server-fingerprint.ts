/**
 * A SHA-256 certificate fingerprint as hex digits alone, uppercase: "ab:cd…", "AB CD…" and
 * "abcd…" are one fingerprint (an HTTPS LAN room's, docs/architecture.md "The LAN room over
 * HTTPS").
 */
export function fingerprintDigits(fingerprint: string): string {
  return fingerprint.replace(/[\s:]/g, '').toUpperCase();
}

/** Whether `fingerprint` reads as a SHA-256 fingerprint at all. */
export function isSha256Fingerprint(fingerprint: string): boolean {
  return /^[0-9A-F]{64}$/.test(fingerprintDigits(fingerprint));
}
