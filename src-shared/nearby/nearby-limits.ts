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
 * A device that left the list while the person was choosing stays this long, greyed out, before
 * it goes: a tile does not vanish under the pointer, and a device that comes back within it takes
 * its place again. Under the 5 s within which issue 36 wants a device gone from every list.
 */
export const NEARBY_GONE_SHOWN_MS = 4 * SECOND_MS;

/** After the presence socket was lost, the program takes its seat again after this long. */
export const NEARBY_PRESENCE_RETRY_MS = 3 * SECOND_MS;

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
