import { splitExtension } from './split-extension';

/**
 * Numbered names (`name (1)` to `name (100)`) tried for a taken name before random ones. Each try
 * costs a look at the disk, so numbering on forever makes many files of one name quadratic: the
 * 300th would try 300 names.
 */
export const COLLISION_NUMBERED_TRIES = 100;

/** Random names (`name (k3f9q2)`) tried after the numbered ones; all taken means no free name. */
export const COLLISION_RANDOM_TRIES = 10;

/** Characters of a random suffix: 30 bits, so a clash among random names is a freak event. */
export const COLLISION_TOKEN_LENGTH = 6;

// Lowercase Crockford base32: no i, l, o or u to misread; 32 symbols take a byte's low 5 bits
// without bias.
const TOKEN_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The name to try when `name` is taken: `report.pdf` becomes `report (1).pdf`, and an archive
 * keeps its double extension, `archive (1).tar.gz`, so the file still opens with the right
 * tool. Call it with the original name and increasing `n`, not with its own output.
 */
export function withCollisionSuffix(name: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`a collision suffix counts from 1, got ${n}`);
  }
  return withSuffix(name, String(n));
}

/**
 * Every name to try for `name`, in order, until one is free: `name` itself, `name (1)` to
 * `name (COLLISION_NUMBERED_TRIES)`, then COLLISION_RANDOM_TRIES names with a random suffix,
 * `name (k3f9q2)`, made from `randomBytes` (the runtime's cryptographic source). A caller that
 * finds every one taken gives up: it never replaces what is there.
 */
export function* collisionCandidates(
  name: string,
  randomBytes: (count: number) => Uint8Array,
): Generator<string, void, undefined> {
  yield name;
  for (let n = 1; n <= COLLISION_NUMBERED_TRIES; n += 1) yield withCollisionSuffix(name, n);
  for (let n = 0; n < COLLISION_RANDOM_TRIES; n += 1) {
    const bytes = randomBytes(COLLISION_TOKEN_LENGTH);
    yield withSuffix(name, Array.from(bytes, (byte) => TOKEN_ALPHABET[byte % 32]).join(''));
  }
}

function withSuffix(name: string, suffix: string): string {
  const { stem, extension } = splitExtension(name);
  return `${stem} (${suffix})${extension}`;
}

/** Gives up looking for a free `name (n).ext` after this many, as a folder that full is a mistake. */
export const MAX_COLLISION_SUFFIX = 999;
