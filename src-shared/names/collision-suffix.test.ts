import { describe, expect, it } from 'vitest';
import {
  COLLISION_NUMBERED_TRIES,
  COLLISION_RANDOM_TRIES,
  collisionCandidates,
  withCollisionSuffix,
} from './collision-suffix';

/** Bytes from a counter, so each random suffix is known in advance. */
function countingBytes(): (count: number) => Uint8Array {
  let next = 0;
  return (count) => Uint8Array.from({ length: count }, () => next++);
}

describe('withCollisionSuffix', () => {
  it.each([
    ['the number goes before the extension', 'report.pdf', 1, 'report (1).pdf'],
    ['an archive keeps its double extension', 'archive.tar.gz', 2, 'archive (2).tar.gz'],
    ['a name without an extension gets the number at the end', 'Makefile', 3, 'Makefile (3)'],
    ['a dotfile gets the number at the end', '.bashrc', 1, '.bashrc (1)'],
    ['only the last component of a path is numbered', 'v1.2/readme', 4, 'v1.2/readme (4)'],
  ])('%s', (_rule, name, n, expected) => {
    expect(withCollisionSuffix(name, n)).toBe(expected);
  });

  it.each([0, -1, 1.5, Number.NaN])('a count of %s is refused', (n) => {
    expect(() => withCollisionSuffix('report.pdf', n)).toThrow(RangeError);
  });
});

describe('the names tried for a taken name', () => {
  it('are the name, then numbers up to the cap, then a bounded number of random suffixes', () => {
    const names = [...collisionCandidates('report.tar.gz', countingBytes())];

    expect(names).toHaveLength(1 + COLLISION_NUMBERED_TRIES + COLLISION_RANDOM_TRIES);
    expect(names.slice(0, 3)).toEqual(['report.tar.gz', 'report (1).tar.gz', 'report (2).tar.gz']);
    expect(names[COLLISION_NUMBERED_TRIES]).toBe(`report (${COLLISION_NUMBERED_TRIES}).tar.gz`);
    expect(names.slice(COLLISION_NUMBERED_TRIES + 1, COLLISION_NUMBERED_TRIES + 3)).toEqual([
      'report (012345).tar.gz',
      'report (6789ab).tar.gz',
    ]);
  });

  it('random suffixes use only unambiguous lowercase letters and digits, whatever the bytes', () => {
    const names = [...collisionCandidates('a.txt', () => new Uint8Array([0, 31, 32, 200, 255, 8]))];

    expect(names.at(-1)).toBe('a (0z08z8).txt');
    for (const name of names.slice(COLLISION_NUMBERED_TRIES + 1)) {
      expect(name).toMatch(/^a \([0-9a-hjkmnp-tv-z]{6}\)\.txt$/);
    }
  });

  it('asks for random bytes only once the numbered names are used up', () => {
    let asked = 0;
    const names = collisionCandidates('a.txt', (count) => {
      asked += 1;
      return new Uint8Array(count);
    });
    for (let n = 0; n <= COLLISION_NUMBERED_TRIES; n += 1) names.next();

    expect(asked).toBe(0);
    expect(names.next().value).toBe('a (000000).txt');
    expect(asked).toBe(1);
  });
});
