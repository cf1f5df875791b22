// Limits and deadlines of the programs around a transfer: the command line's output and exit, and
// the screens' brief confirmations.

/** A pipe or log file gets a line this often at most, so logs stay readable. */
export const PLAIN_LINE_INTERVAL_MS = 2_000;

/**
 * The engine closes every handle before `finished`; this only guards against a native handle
 * that outlives it, so a finished command never hangs.
 */
export const EXIT_GUARD_MS = 15_000;

/** How long a Copy button says it copied. */
export const COPIED_FOR_MS = 2000;

/** The done screen lists this many files: thousands would make a list nobody reads and a page that crawls. */
export const MAX_LISTED_FILES = 100;
