/**
 * Google's public STUN pair: what a server without a relay hands out, and what a peer falls back
 * to when the server gives no usable list.
 */
export const PUBLIC_STUN_URLS: readonly string[] = [
  'stun:stun.l.google.com:19302',
  'stun:stun1.l.google.com:19302',
];
