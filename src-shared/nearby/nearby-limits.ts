// Limits and deadlines of issue 36's nearby devices: presence and pair rooms (docs/protocol.md,
// "Presence", "Pair rooms"). Every slice adds its own here.

import { SECOND_MS } from '../time-units';

/**
 * Pair rooms one program waits in at most, one socket each. The server lets one address open 30
 * sockets a minute (docs/protocol.md, "Server limits"); a program that rejoins every room after a
 * restart must stay well inside that, with room left for its transfers. Devices past the cap
 * (the most recently remembered are watched first) are not shown online.
 */
export const PAIR_ROOMS_MAX = 8;

/**
 * How long a pair room is left alone after its seat could not be held (a stranger in it:
 * `room-full`; the server unreachable; the socket lost) before it is joined again.
 */
export const PAIR_ROOM_RETRY_MS = 30 * SECOND_MS;

/**
 * How long a send without a code waits for its one device to join the room it was invited to
 * before it says that device is not online (ERR_NOT_ONLINE). The bound for
 * `ferry send --to NAME` to give up is 30 s in all, invitation included.
 */
export const REACH_ANSWER_TIMEOUT_MS = 20 * SECOND_MS;
