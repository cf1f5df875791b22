import {
  readReceiveFragment,
  receiveFragment,
  type ReceiveFragment,
} from '../../src-shared/codes/receive-fragment';
import type { LanRoomView } from '../backend/ferry-backend';

/**
 * What the sender's QR code carries. With a web client that talks to the server this code lives
 * on, a link `<webClientUrl>/#receive=<code>&key=<secret>` so a phone's camera opens the receive
 * screen with the code filled in, and the secret in the fragment, which the browser never sends
 * to a server (docs/protocol.md, "Secret link"); otherwise the code itself, which any device can
 * show or type.
 */
export function receiveLink(code: string, webClientUrl: string | undefined, key?: string): string {
  if (webClientUrl === undefined) return code;
  try {
    const link = new URL(webClientUrl);
    link.hash = receiveFragment(key === undefined ? { code } : { code, key });
    return link.href;
  } catch {
    return code;
  }
}

/**
 * The code and key a receive link carries, when the page was opened from one; a link without a
 * key (an older sender's) still gives its code.
 */
export function receiveFromLink(hash: string): ReceiveFragment | null {
  return readReceiveFragment(hash);
}

/**
 * The web client that can receive a code registered on `serverUrl`: this device's LAN room when
 * it is that very server (a code lives on one server only), else the backend's own, if any.
 * It may be reachable from this computer only (`reachableFromOtherDevices`).
 */
export function webClientFor(
  room: LanRoomView,
  serverUrl: string | undefined,
  backendWebClientUrl: string | undefined,
): string | undefined {
  if (room.state === 'on' && serverUrl !== undefined && sameOrigin(room.url, serverUrl)) {
    return room.url;
  }
  return backendWebClientUrl;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

// Names and addresses that lead back to the device itself, never to it from another one; the
// URL parser writes an IPv4-mapped 127.x address in hex (`[::ffff:7f00:1]`).
const LOOPBACK_HOST =
  /^(?:localhost|.*\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/i;

/**
 * Whether a phone or another computer could open `url`: not a loopback name or address, which
 * would lead the phone to itself. What is not a URL is reachable by nobody.
 */
export function reachableFromOtherDevices(url: string): boolean {
  try {
    return !LOOPBACK_HOST.test(new URL(url).hostname);
  } catch {
    return false;
  }
}
