// How a cluster of signaling servers notices that one of them died. Each server keeps a presence
// key in Redis alive; once it lapses, any survivor frees the dead server's seats and tells the
// peers left in those rooms.

/** How often a server renews its presence and sweeps the servers whose presence lapsed. */
export const PRESENCE_REFRESH_INTERVAL_MS = 5_000;

/**
 * How long a presence lasts unless renewed: three missed renewals, so that a garbage-collection
 * pause or a slow Redis round trip is not mistaken for death.
 */
export const PRESENCE_TTL_MS = 15_000;

/**
 * The longest a dead server's peers keep their seats: its presence lapses at most PRESENCE_TTL_MS
 * after its last renewal, and the next sweep of a survivor follows within one interval.
 */
export const SEAT_RELEASE_MAX_MS = PRESENCE_TTL_MS + PRESENCE_REFRESH_INTERVAL_MS;

/**
 * The TTL of a seat's keys (the room, the peer, the server's list of its peers), renewed with the
 * presence. Should no survivor sweep a dead server's seats (the whole cluster stopped at once),
 * Redis drops them itself. Four presence lifetimes: a server whose renewals stop for longer has
 * lost its presence, and its peers, long before.
 */
export const SEAT_KEY_TTL_MS = 4 * PRESENCE_TTL_MS;
