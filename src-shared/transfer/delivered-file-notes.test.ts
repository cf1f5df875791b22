import { describe, expect, it } from 'vitest';
import { deliveredFileNotes, doneHeading } from './delivered-file-notes';

const MiB = 1024 * 1024;

describe('what a delivered file says beside its name', () => {
  it('nothing, where nobody verified and nothing was resumed', () => {
    expect(deliveredFileNotes({ name: 'a.bin', size: 10 })).toEqual([]);
  });

  it('whether its digest was checked, and honestly when the confirmation never came', () => {
    expect(deliveredFileNotes({ name: 'a.bin', size: 10, verified: true })).toEqual(['verified']);
    expect(deliveredFileNotes({ name: 'a.bin', size: 10, verified: false })).toEqual([
      'not verified',
    ]);
  });

  it('how much was already there, or that nothing travelled at all', () => {
    const file = { name: 'a.bin', size: 20 * MiB, verified: true };
    expect(deliveredFileNotes({ ...file, resumedBytes: 12 * MiB })).toEqual([
      'verified',
      '12.6 MB was already there',
    ]);
    expect(deliveredFileNotes({ ...file, resumedBytes: 20 * MiB })).toEqual([
      'verified',
      'already there, nothing sent',
    ]);
  });
});

describe('the done heading', () => {
  it('adds "and verified" only when every file was checked', () => {
    expect(doneHeading('send', true)).toBe('Delivered and verified');
    expect(doneHeading('receive', true)).toBe('Received and verified');
    expect(doneHeading('send', false)).toBe('Delivered');
    expect(doneHeading('receive', undefined)).toBe('Received');
  });
});
