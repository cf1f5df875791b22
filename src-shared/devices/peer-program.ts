/**
 * Which kind of Ferry program is on the other end, as far as its release string tells
 * (../shared/spec/data-channel-protocol.md, `ver`): the desktop app sends its tag
 * (`desktop-v<semver>`), a command-line peer its semver or `dev`, a browser nothing. A history
 * entry names a peer by it when the peer gave no name (docs/protocol.md, "Remembered devices").
 */
export type PeerProgram = 'desktop' | 'command-line' | 'browser';

const DESKTOP_TAG = 'desktop-v';

export function peerProgram(ver: string | undefined): PeerProgram {
  if (ver === undefined) return 'browser';
  return ver.startsWith(DESKTOP_TAG) ? 'desktop' : 'command-line';
}

/** Every surface's words for a peer known only by its program. */
export const PEER_PROGRAM_WORDS: Record<PeerProgram, string> = {
  desktop: 'the Ferry desktop app',
  'command-line': 'the command line',
  browser: 'a web browser',
};
