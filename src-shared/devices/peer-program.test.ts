import { describe, expect, it } from 'vitest';
import { peerProgram } from './peer-program';

describe('the program on the other end, by its release string', () => {
  it('is the desktop app for its tag, the command line for a semver or `dev`, a browser for none', () => {
    expect(peerProgram('desktop-v1.4.0')).toBe('desktop');
    expect(peerProgram('1.4.0')).toBe('command-line');
    expect(peerProgram('dev')).toBe('command-line');
    expect(peerProgram(undefined)).toBe('browser');
  });
});
