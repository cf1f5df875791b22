// Limits and deadlines of issue 36's nearby devices: presence and pair rooms (docs/protocol.md,
// "Presence", "Pair rooms"). Every slice adds its own here.

import { SECOND_MS } from '../time-units';

/**
 * How long `ferry send --to NAME` looks for NAME online (in its pair room, or on the roster)
 * before it says NAME is not online. With REACH_ANSWER_TIMEOUT_MS after the invitation, the
 * whole wait stays inside the 30 s.
 */
export const SEND_TO_LOOK_MS = 5 * SECOND_MS;

/**
 * How long `ferry devices` looks in the pair rooms before it prints who is online: a device
 * waiting in its room is seen as soon as the room is joined, so this covers the joins.
 */
export const DEVICES_LOOK_MS = 3 * SECOND_MS;

/**
 * How often `ferry receive --listen` reads the remembered devices again, so a device remembered
 * or forgotten by another `ferry` meanwhile has its pair room joined or left.
 */
export const LISTEN_DEVICES_REREAD_MS = 5 * SECOND_MS;

/** How long a listening program waits before it joins a roster again after losing its seat. */
export const ROSTER_REJOIN_MS = 30 * SECOND_MS;
