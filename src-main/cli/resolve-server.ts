import { LAN_SEARCH_MS, LAN_SEARCH_SETTLE_MS } from '../../src-shared/lan/limits';
import { findRooms, type LanRoom } from '../lan/room-browser';
import { EXIT, type ExitCode } from './exit-codes';
import type { ServerChoice } from './parse-args';

export type ServerProblem = { problem: string; exit: ExitCode };

/**
 * The room `--lan` goes on with: the one room that answered. With several it does not pick,
 * since any device on the network can announce a room: the person chooses with --server.
 */
export function chooseLanRoom(rooms: readonly LanRoom[]): string | ServerProblem {
  const [only] = rooms;
  if (rooms.length === 1 && only) return only.url;
  if (rooms.length === 0) {
    return {
      problem:
        'No LAN room was found on this network: host one in the Ferry desktop app, or pass --server.',
      exit: EXIT.unreachable,
    };
  }
  const list = rooms.map((room) => `  ${room.name}  ${room.url}`).join('\n');
  return {
    problem: `${rooms.length} LAN rooms answered on this network, so --lan will not pick one. Choose the room with --server <url>:\n${list}`,
    exit: EXIT.usage,
  };
}

/** The signaling server to use: the one named, or the one LAN room announced nearby. */
export async function resolveServer(choice: ServerChoice): Promise<string | ServerProblem> {
  if (choice.kind === 'url') return choice.url;
  try {
    return chooseLanRoom(
      await findRooms({ timeoutMs: LAN_SEARCH_MS, settleMs: LAN_SEARCH_SETTLE_MS }),
    );
  } catch (error) {
    return {
      problem: `Could not search this network for a LAN room (${(error as Error).message}).`,
      exit: EXIT.unreachable,
    };
  }
}
