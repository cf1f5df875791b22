// Limits and deadlines of issue 36, "Devices you can see" (docs/protocol.md, "Presence" and
// "Pair rooms"; docs/architecture.md, "Nearby devices").

/**
 * A device that left the list while the person was choosing stays this long, greyed out, before
 * it goes: a tile does not vanish under the pointer, and a device that comes back within it takes
 * its place again.
 */
export const NEARBY_GONE_SHOWN_MS = 10_000;

/** After the presence socket was lost, the program takes its seat again after this long. */
export const NEARBY_PRESENCE_RETRY_MS = 3_000;
