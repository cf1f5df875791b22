import { describe, expect, it } from 'vitest';
import { plainHttpLimits, type PageAbilities } from './page-abilities';

const NONE: PageAbilities = {
  secureContext: false,
  chooseFolder: false,
  serviceWorker: false,
  notifications: false,
};

describe('what a page lacks because it was opened over plain HTTP', () => {
  it('is everything the browser withheld, on a page that is not a secure context', () => {
    expect(plainHttpLimits(NONE)).toEqual(['choose-folder', 'stream-downloads', 'notify']);
    expect(plainHttpLimits({ ...NONE, notifications: true })).toEqual([
      'choose-folder',
      'stream-downloads',
    ]);
  });

  it('is nothing on a secure page, whatever its browser lacks', () => {
    // Firefox over https: no folder picker, yet plain HTTP is not why.
    expect(plainHttpLimits({ ...NONE, secureContext: true })).toEqual([]);
  });
});
