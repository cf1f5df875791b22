import { isCodeShape, normalizeCode } from '../../src-shared/codes';
import type { LanRoomView } from '../backend/ferry-backend';

const RECEIVE_FRAGMENT = /^#receive=(.+)$/;

/**
 * What the sender's QR code carries. With a web client that talks to the server this code lives
 * on, a link `<webClientUrl>/#receive=<code>` so a phone's camera opens the receive screen with
 * the code filled in; otherwise the code itself, which any device can show or type.
 */
export function receiveLink(code: string, webClientUrl: string | undefined): string {
  if (webClientUrl === undefined) return code;
  try {
    const link = new URL(webClientUrl);
    link.hash = `receive=${code}`;
    return link.href;
  } catch {
    return code;
  }
}

/** The code a receive link carries, when the page was opened from one. */
export function codeFromLink(hash: string): string | null {
  const match = RECEIVE_FRAGMENT.exec(hash);
  if (!match) return null;
  let code: string;
  try {
    code = normalizeCode(decodeURIComponent(match[1]));
  } catch {
    return null;
  }
  return isCodeShape(code) ? code : null;
}

/**
 * The web client that can receive a code registered on `serverUrl`: this device's LAN room when
 * it is that very server (a code lives on one server only), else the backend's own, if any.
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
