import { limitKey } from './limit-key';

/**
 * The address of the client that sent a request. With `trustedProxyCount` proxies in front of the
 * server, the client is the entry that many places from the right of X-Forwarded-For (Express's
 * numeric "trust proxy"); a header with fewer entries yields its leftmost one. With no trusted
 * proxy the header is ignored, because anyone can write it.
 */
export function clientIp(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxyCount: number,
): string {
  const direct = remoteAddress ?? 'unknown';
  if (trustedProxyCount <= 0 || forwardedFor === undefined) return direct;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  if (hops.length === 0) return direct;
  return hops[Math.max(0, hops.length - trustedProxyCount)];
}

/** The key the client of a request counts under in every per-IP limit (see limitKey). */
export function clientLimitKey(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxyCount: number,
): string {
  return limitKey(clientIp(remoteAddress, forwardedFor, trustedProxyCount));
}
