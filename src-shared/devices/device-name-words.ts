import type { PeerCheck } from '../transfer/transfer-view';

// Every surface's words for the device on the other end (docs/protocol.md, "Remembered devices",
// "The name shown"): one place, so the prompt, the steps, the done screens, the history and the
// command line all say the same.

/** What one side knows of the other device's name: what it remembers, and what it was told. */
export interface NamedPeer {
  check?: PeerCheck | undefined;
  /** The name the other device gave itself beside `device`, cleaned: only a suggestion. */
  announcedName?: string | undefined;
}

/**
 * The name this side shows for the other device: the one it remembers it by, else the one it gave
 * itself; undefined when it gave none (a specification-only peer, or one that announced nothing).
 */
export function shownPeerName(peer: NamedPeer): string | undefined {
  return peer.check?.kind === 'device' ? peer.check.name : peer.announcedName;
}

/** Said in place of a name when the other device gave none. */
export const NAMELESS_DEVICE = 'a device that gave no name';

/** "from Ana's laptop", "from a device that gave no name". */
export function fromWords(name: string | undefined): string {
  return `from ${name ?? NAMELESS_DEVICE}`;
}

/** The first line of the accept prompt: "From Ana's laptop". */
export function fromLine(name: string | undefined): string {
  return `From ${name ?? NAMELESS_DEVICE}`;
}

/** The sender's step while the other person decides; as before when no name is known. */
export function waitingForLine(name: string | undefined): string {
  return name === undefined ? 'Waiting for the other person' : `Waiting for ${name} to accept`;
}

/** The heading while the files move: "Sending to Ana's laptop", "Receiving from Ana's laptop". */
export function movingLine(direction: 'send' | 'receive', name: string | undefined): string {
  if (direction === 'send') return name === undefined ? 'Sending' : `Sending to ${name}`;
  return name === undefined ? 'Receiving' : `Receiving from ${name}`;
}

/** The done screen's line under its heading: "Sent to Ana's laptop", "Received from Ana's laptop". */
export function doneWithLine(direction: 'send' | 'receive', name: string | undefined): string {
  return direction === 'send'
    ? `Sent to ${name ?? NAMELESS_DEVICE}`
    : `Received from ${name ?? NAMELESS_DEVICE}`;
}

/** The command line's sender, once the receiver answered: "Connected: Ana's laptop". */
export function connectedLine(name: string | undefined): string {
  return `Connected: ${name ?? NAMELESS_DEVICE}`;
}
