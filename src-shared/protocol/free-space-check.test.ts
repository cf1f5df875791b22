import { describe, expect, it } from 'vitest';
import { noSpace, shortOfSpace } from './free-space-check';

// The receiver's side of docs/protocol.md, "Free space".
const free = { bytes: 1000, reserve: 100, folder: '/home/me/Downloads' };
const batch = { totalBytes: 950, keptBytes: 0 };

describe('the free-space check', () => {
  it('holds the whole batch to what is free, less the reserve, before the first file', () => {
    expect(shortOfSpace(free, batch, { index: 0, fileSize: 10 }, 0)).toBe(950);
    expect(
      shortOfSpace(free, { ...batch, totalBytes: 900 }, { index: 0, fileSize: 10 }, 0),
    ).toBeUndefined();
  });

  it('counts what a lost link left here once, and a later file alone', () => {
    const kept = { totalBytes: 950, keptBytes: 100 };
    expect(shortOfSpace(free, kept, { index: 0, fileSize: 500 }, 60)).toBeUndefined();
    expect(shortOfSpace(free, batch, { index: 1, fileSize: 950 }, 40)).toBe(910);
  });

  it('checks nothing where the target cannot tell', () => {
    expect(shortOfSpace(undefined, batch, { index: 0, fileSize: 10 }, 0)).toBeUndefined();
  });

  it('names the folder locally and only the sizes to the sender', () => {
    const refusal = noSpace(950, free);
    expect(refusal.failure).toEqual({
      code: 'ERR_DISK_FULL',
      message:
        'not enough free space in /home/me/Downloads: this needs 950 B and 1.0 kB is free, of which 100 B is kept free for the system',
    });
    expect(refusal.reason).not.toContain('/home/me');
  });
});
