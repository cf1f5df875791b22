import { describe, expect, it } from 'vitest';
import { textMessageWords, textSenderLine } from './text-message-words';

describe('textMessageWords', () => {
  it('counts characters as a person does, not bytes or UTF-16 units', () => {
    expect(textMessageWords('é✓😀')).toBe('a text message (3 characters)');
    expect(textMessageWords('a')).toBe('a text message (1 character)');
    expect(textMessageWords('x'.repeat(1900))).toBe('a text message (1,900 characters)');
  });
});

describe('textSenderLine', () => {
  const fingerprint = 'sha-256 AB';
  it('names the sender by its remembered name, else its own, else its program', () => {
    expect(
      textSenderLine({
        fingerprint,
        check: { kind: 'device', name: 'Ana laptop', fingerprint },
        announcedName: 'Other',
      }),
    ).toBe('“Ana laptop” sent a text');
    expect(
      textSenderLine({ fingerprint, check: { kind: 'unverified' }, announcedName: 'Desk' }),
    ).toBe('“Desk” sent a text');
    expect(textSenderLine({ fingerprint, check: { kind: 'unverified' }, program: 'browser' })).toBe(
      'A web browser sent a text',
    );
    expect(textSenderLine(undefined)).toBe('The other device sent a text');
  });
});
