// Limits and deadlines of LAN rooms: announcing one, finding them, and choosing one.

const SECOND_MS = 1_000;

/** Rooms one device keeps in its list of rooms found nearby; more are ignored until some leave. */
export const MAX_DISCOVERED_ROOMS = 32;

/**
 * How long a room is believed after its last answer, whatever lifetime it claimed. The browser
 * asks again at least every 30 s, so a room that is still there never drops, and one whose host
 * vanished without a goodbye drops within two minutes.
 */
export const ROOM_SIGHTING_MAX_MS = 120 * SECOND_MS;

/** How long the command line's `--lan` listens for rooms at most. */
export const LAN_SEARCH_MS = 5 * SECOND_MS;

/**
 * How long `--lan` keeps listening once a room answered, for a second room it must not pass
 * over: past the browser's second query, so one lost answer does not hide a room.
 */
export const LAN_SEARCH_SETTLE_MS = 2 * SECOND_MS;

/** How long a room's announcement may take (probing, renaming on conflict, announcing). */
export const ROOM_ANNOUNCE_TIMEOUT_MS = 15 * SECOND_MS;

/**
 * A DNS label holds at most 63 bytes; the responder appends " (2)" and so on to a name already
 * taken on the network, and that must still fit.
 */
export const LABEL_MAX_BYTES = 63 - ' (99)'.length;

/** RFC 6762 section 5.2: continuous queries start one second apart and at least double each time. */
export const FIRST_REQUERY_MS = SECOND_MS;

/** Well below ROOM_SIGHTING_MAX_MS, so a lost answer or two never drops a live room. */
export const MAX_REQUERY_MS = 30 * SECOND_MS;
