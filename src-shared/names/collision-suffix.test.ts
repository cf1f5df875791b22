import { describe, expect, it } from 'vitest';
import { withCollisionSuffix } from './collision-suffix';

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
