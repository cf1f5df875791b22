import { describe, expect, it } from 'vitest';
import {
  readReceiverMessage,
  readSenderMessage,
  refusesLinkProof,
  refusesVerification,
} from './decode-control';
import { encodeControlJson } from './encode';
import { CONTROL_FRAME_MAX_BYTES, DEVICE_NAME_MAX_CHARS } from './limits';
import { CAPABILITIES } from './messages';

// Ferry's extension messages are read with schemas like the spec's (docs/protocol.md,
// "Capabilities"): a malformed one is refused, never half-read.
const DIGEST = 'ab'.repeat(32);

describe('reading extension messages', () => {
  it('drops capabilities this build does not know, so a newer peer still reads', () => {
    expect(readSenderMessage({ type: 'ferry-caps', caps: ['verify', 'warp', 7] })).toEqual({
      kind: 'control',
      message: { type: 'ferry-caps', caps: ['verify'] },
    });
  });

  it('reads a pair share either way, and drops an unusable one without the caps beside it', () => {
    for (const read of [readSenderMessage, readReceiverMessage]) {
      expect(read({ type: 'ferry-caps', caps: ['pair'], pair: DIGEST })).toEqual({
        kind: 'control',
        message: { type: 'ferry-caps', caps: ['pair'], pair: DIGEST },
      });
      for (const pair of [DIGEST.toUpperCase(), DIGEST.slice(2), 7]) {
        expect(read({ type: 'ferry-caps', caps: ['pair'], pair })).toEqual({
          kind: 'control',
          message: { type: 'ferry-caps', caps: ['pair'] },
        });
      }
    }
  });

  it('refuses a caps list that is not a list', () => {
    expect(readReceiverMessage({ type: 'ferry-caps', caps: 'verify' })).toMatchObject({
      kind: 'refused',
      problem: 'caps is not a list',
    });
  });

  it('refuses a digest that is not lowercase hex SHA-256', () => {
    for (const sha256 of [DIGEST.toUpperCase(), DIGEST.slice(2), 42]) {
      expect(readSenderMessage({ type: 'ferry-digest', id: 'f', sha256 })).toMatchObject({
        kind: 'refused',
        problem: 'sha256 is not a SHA-256 digest in lowercase hex',
      });
    }
  });

  it('refuses a resume offer without a whole offset or a usable prefix', () => {
    expect(
      readReceiverMessage({ type: 'ferry-resume', id: 'f', offset: -1, prefix: DIGEST }),
    ).toMatchObject({ kind: 'refused', problem: 'offset is not a byte count' });
    expect(
      readReceiverMessage({ type: 'ferry-resume', id: 'f', offset: 4, prefix: 'x' }),
    ).toMatchObject({
      kind: 'refused',
      problem: 'prefix is not a SHA-256 digest in lowercase hex',
    });
  });

  it('ignores an extension message travelling the wrong way', () => {
    expect(readSenderMessage({ type: 'ferry-resume', id: 'f', offset: 0, prefix: DIGEST })).toEqual(
      { kind: 'ignored', why: 'wrong-direction' },
    );
    expect(readReceiverMessage({ type: 'ferry-digest', id: 'f', sha256: DIGEST })).toEqual({
      kind: 'ignored',
      why: 'wrong-direction',
    });
  });

  it('reads a file list, keeping only names and sizes, and refuses a malformed one', () => {
    expect(
      readSenderMessage({
        type: 'ferry-list',
        files: [{ name: 'a.txt', size: 3, mode: 'rwx' }],
        more: false,
      }),
    ).toEqual({
      kind: 'control',
      message: { type: 'ferry-list', files: [{ name: 'a.txt', size: 3 }], more: false },
    });
    for (const files of [
      [{ name: '', size: 3 }],
      [{ name: 'a', size: -1 }],
      [{ name: 'a' }],
      'a',
    ]) {
      expect(readSenderMessage({ type: 'ferry-list', files, more: false })).toMatchObject({
        kind: 'refused',
        problem: 'files is not a list of names and sizes',
      });
    }
    expect(readSenderMessage({ type: 'ferry-list', files: [], more: 'no' })).toMatchObject({
      kind: 'refused',
      problem: 'more is not true or false',
    });
    expect(readReceiverMessage({ type: 'ferry-list', files: [], more: false })).toEqual({
      kind: 'ignored',
      why: 'wrong-direction',
    });
  });

  it('reads the keepalive both ways', () => {
    expect(readSenderMessage({ type: 'ferry-alive' })).toEqual({
      kind: 'control',
      message: { type: 'ferry-alive' },
    });
    expect(readReceiverMessage({ type: 'ferry-alive' })).toEqual({
      kind: 'control',
      message: { type: 'ferry-alive' },
    });
  });

  it("reads the sender's commitment beside sas, and leaves a nonce it has no business sending", () => {
    expect(
      readSenderMessage({ type: 'ferry-caps', caps: ['sas'], commit: DIGEST, nonce: DIGEST }),
    ).toEqual({ kind: 'control', message: { type: 'ferry-caps', caps: ['sas'], commit: DIGEST } });
    expect(readReceiverMessage({ type: 'ferry-caps', caps: ['sas'], nonce: DIGEST })).toEqual({
      kind: 'control',
      message: { type: 'ferry-caps', caps: ['sas'], nonce: DIGEST },
    });
  });

  it('refuses a commitment or a nonce that is not 32 bytes of lowercase hex, as verification input', () => {
    for (const value of [DIGEST.toUpperCase(), DIGEST.slice(2), `${DIGEST}00`, 42, null]) {
      const commit = readSenderMessage({ type: 'ferry-caps', caps: ['sas'], commit: value });
      expect(commit).toMatchObject({
        kind: 'refused',
        problem: 'commit is not a SHA-256 digest in lowercase hex',
      });
      const nonce = readReceiverMessage({ type: 'ferry-caps', caps: ['sas'], nonce: value });
      expect(nonce).toMatchObject({
        kind: 'refused',
        problem: 'nonce is not 32 bytes in lowercase hex',
      });
      const reveal = readSenderMessage({ type: 'ferry-sas-reveal', nonce: value });
      expect(reveal).toMatchObject({ kind: 'refused', type: 'ferry-sas-reveal' });
      for (const reading of [commit, nonce, reveal]) {
        expect(reading.kind === 'refused' && refusesVerification(reading)).toBe(true);
      }
    }
    const notAList = readSenderMessage({ type: 'ferry-caps', caps: 'sas', commit: DIGEST });
    expect(notAList.kind === 'refused' && refusesVerification(notAList)).toBe(false);
  });

  it('reads the reveal from a sender only, and it fits a control frame', () => {
    expect(readSenderMessage({ type: 'ferry-sas-reveal', nonce: DIGEST })).toEqual({
      kind: 'control',
      message: { type: 'ferry-sas-reveal', nonce: DIGEST },
    });
    expect(readReceiverMessage({ type: 'ferry-sas-reveal', nonce: DIGEST })).toEqual({
      kind: 'ignored',
      why: 'wrong-direction',
    });
    const caps = encodeControlJson({
      type: 'ferry-caps',
      caps: ['verify', 'resume', 'reconnect', 'list', 'sas'],
      commit: DIGEST,
    });
    expect(caps).toBe(
      `{"type":"ferry-caps","caps":["verify","resume","reconnect","list","sas"],"commit":"${DIGEST}"}`,
    );
    expect(caps.length).toBeLessThan(CONTROL_FRAME_MAX_BYTES);
    expect(encodeControlJson({ type: 'ferry-sas-reveal', nonce: DIGEST })).toBe(
      `{"type":"ferry-sas-reveal","nonce":"${DIGEST}"}`,
    );
  });

  it('reads a device name beside the caps cleaned, and drops one that is no name without losing the caps', () => {
    const named = readReceiverMessage({
      type: 'ferry-caps',
      caps: ['device'],
      name: '  Ana\u202e’s\n\tlaptop\u200b ',
    });
    expect(named).toEqual({
      kind: 'control',
      message: { type: 'ferry-caps', caps: ['device'], name: 'Ana’s laptop' },
    });
    for (const name of [42, '', ' \u200b\u0007 ', ['Ana']]) {
      expect(readSenderMessage({ type: 'ferry-caps', caps: ['device'], name })).toEqual({
        kind: 'control',
        message: { type: 'ferry-caps', caps: ['device'] },
      });
    }
    const long = readSenderMessage({ type: 'ferry-caps', caps: ['device'], name: '𝔸'.repeat(500) });
    expect(long.kind === 'control' && long.message.type === 'ferry-caps' && long.message.name).toBe(
      '𝔸'.repeat(DEVICE_NAME_MAX_CHARS),
    );
  });

  it('a sender’s largest caps message, every capability with a commitment, its secrets and the longest name, fits a control frame', () => {
    const caps = encodeControlJson({
      type: 'ferry-caps',
      caps: [...CAPABILITIES],
      commit: DIGEST,
      name: '𝔸'.repeat(DEVICE_NAME_MAX_CHARS),
      text: true,
      rejoin: DIGEST,
      pair: DIGEST,
    });
    expect(JSON.parse(caps)).toMatchObject({ name: '𝔸'.repeat(DEVICE_NAME_MAX_CHARS) });
    expect(new TextEncoder().encode(caps).byteLength).toBeLessThan(CONTROL_FRAME_MAX_BYTES);
  });

  it('reads a link proof either way, and it fits a control frame', () => {
    const proof = { type: 'ferry-link-proof', mac: DIGEST } as const;
    for (const read of [readSenderMessage, readReceiverMessage]) {
      expect(read(proof)).toEqual({ kind: 'control', message: proof });
    }
    const encoded = encodeControlJson(proof);
    expect(encoded).toBe(`{"type":"ferry-link-proof","mac":"${DIGEST}"}`);
    expect(encoded.length).toBeLessThan(CONTROL_FRAME_MAX_BYTES);
    expect(readSenderMessage({ type: 'ferry-caps', caps: ['sas', 'link'] })).toEqual({
      kind: 'control',
      message: { type: 'ferry-caps', caps: ['sas', 'link'] },
    });
  });

  it.each([
    ['too short', 'ab'.repeat(31)],
    ['upper case', 'AB'.repeat(32)],
    ['not a string', 42],
    ['missing', undefined],
  ])('refuses a link proof whose mac is %s, as a proof that does not check out', (_, mac) => {
    for (const read of [readSenderMessage, readReceiverMessage]) {
      const reading = read({ type: 'ferry-link-proof', mac });
      expect(reading).toMatchObject({ kind: 'refused', type: 'ferry-link-proof' });
      expect(reading.kind === 'refused' && refusesLinkProof(reading)).toBe(true);
    }
  });

  it('writes an outcome with its two fields and nothing else, and reads it either way', () => {
    const decline = { type: 'ferry-outcome', outcome: 'declined', reason: 'extra' } as const;
    expect(encodeControlJson(decline)).toBe('{"type":"ferry-outcome","outcome":"declined"}');
    for (const read of [readSenderMessage, readReceiverMessage]) {
      for (const outcome of ['declined', 'cancelled'] as const) {
        expect(read({ type: 'ferry-outcome', outcome })).toEqual({
          kind: 'control',
          message: { type: 'ferry-outcome', outcome },
        });
      }
    }
  });

  it.each([['shrugged'], [7], [undefined]])(
    'ignores an outcome of %s rather than refusing it: the close that follows speaks for it',
    (outcome) => {
      for (const read of [readSenderMessage, readReceiverMessage]) {
        expect(read({ type: 'ferry-outcome', outcome })).toEqual({
          kind: 'ignored',
          why: 'unknown-outcome',
        });
      }
    },
  );
});
