import { describe, expect, it } from 'vitest';
import {
  connectedLine,
  doneWithLine,
  fromLine,
  movingLine,
  shownPeerName,
  waitingForLine,
} from './device-name-words';

const remembered = { kind: 'device', name: 'Ana laptop', fingerprint: 'sha-256 AA' } as const;

describe('the name shown for the other device', () => {
  it('is the remembered name, whatever the device calls itself', () => {
    expect(shownPeerName({ check: remembered, announcedName: 'Mallory' })).toBe('Ana laptop');
  });

  it('is the announced name of a device not remembered', () => {
    const check = { kind: 'words', words: 'a b c' } as const;
    expect(shownPeerName({ check, announcedName: 'Firefox on Linux' })).toBe('Firefox on Linux');
    expect(shownPeerName({ check })).toBeUndefined();
  });
});

describe('every surface words the other device the same', () => {
  it('names the sender on the prompt, or says it gave no name', () => {
    expect(fromLine('Ana’s laptop')).toBe('From Ana’s laptop');
    expect(fromLine(undefined)).toBe('From a device that gave no name');
  });

  it('names the receiver while waiting, as before when it gave no name', () => {
    expect(waitingForLine('Bea phone')).toBe('Waiting for Bea phone to accept');
    expect(waitingForLine(undefined)).toBe('Waiting for the other person');
  });

  it('names the other side while the files move and once they are done', () => {
    expect(movingLine('send', 'Bea phone')).toBe('Sending to Bea phone');
    expect(movingLine('receive', 'Ana')).toBe('Receiving from Ana');
    expect(movingLine('send', undefined)).toBe('Sending');
    expect(doneWithLine('send', 'Bea phone')).toBe('Sent to Bea phone');
    expect(doneWithLine('receive', undefined)).toBe('Received from a device that gave no name');
  });

  it('names the receiver on the command line once it answered', () => {
    expect(connectedLine('Bea phone')).toBe('Connected: Bea phone');
  });
});
