// The numbers of issue 36's nearby devices (docs/protocol.md, "Presence" and "Pair rooms"), one
// constant each, for the server and for every surface.

import { SECOND_MS } from '../time-units';

/**
 * Devices one server's presence roster lists; a join beyond it is answered with `error`. A LAN
 * room holds a household's or an office's devices, and every change goes to every device listed.
 */
export const PRESENCE_ROSTER_MAX = 64;

/**
 * Invitations one listed device may send per RATE_WINDOW_MS (src-shared/signaling/limits.ts); one
 * more is answered with `error`. A person sends one per click; this only stops a flood.
 */
export const PRESENCE_INVITES_PER_WINDOW = 30;

/**
 * Characters of a roster id, each from the 32-letter alphabet of PRESENCE_ID_ALPHABET: 30 random
 * bits, short enough to read, and a collision within PRESENCE_ROSTER_MAX devices is redrawn.
 */
export const PRESENCE_ID_CHARS = 6;

/** RFC 4648 base32, the letters of a roster id. */
export const PRESENCE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * How long a program waits for the server to answer `presence-join` with the roster. A server
 * without presence answers with `error` at once; one that says nothing within this keeps no roster.
 */
export const PRESENCE_JOIN_TIMEOUT_MS = 5 * SECOND_MS;

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
