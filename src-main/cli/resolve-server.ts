import { findRooms } from '../lan/room-browser';
import type { ServerChoice } from './parse-args';

// A LAN room answers within a second or two; waiting longer only delays a clear "none found".
const LAN_SEARCH_MS = 5_000;

/** The signaling server to use: the one named, or the first LAN room announced nearby. */
export async function resolveServer(choice: ServerChoice): Promise<string | { problem: string }> {
  if (choice.kind === 'url') return choice.url;
  try {
    const [room] = await findRooms({ timeoutMs: LAN_SEARCH_MS, first: true });
    if (room) return room.url;
    return {
      problem:
        'No LAN room was found on this network: host one in the Ferry desktop app, or pass --server.',
    };
  } catch (error) {
    return {
      problem: `Could not search this network for a LAN room (${(error as Error).message}).`,
    };
  }
}
