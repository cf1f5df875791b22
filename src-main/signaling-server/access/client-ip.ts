/**
 * The address per-IP limits count against. With `trustedProxyCount` proxies in front of the
 * server, the client is the entry that many places from the right of X-Forwarded-For (Express's
 * numeric "trust proxy"); a header with fewer entries yields its leftmost one. With no trusted
 * proxy the header is ignored, because anyone can write it.
 */
export function clientIp(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxyCount: number,
): string {
  const direct = unmapIpv4(remoteAddress ?? 'unknown');
  if (trustedProxyCount <= 0 || forwardedFor === undefined) return direct;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  if (hops.length === 0) return direct;
  return unmapIpv4(hops[Math.max(0, hops.length - trustedProxyCount)]);
}

// A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; one client must have one key.
function unmapIpv4(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
