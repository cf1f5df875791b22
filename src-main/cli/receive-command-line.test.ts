import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCode } from '../../src-shared/codes/generate-code';
import { LINK_SECRET_BYTES } from '../../src-shared/protocol/limits';
import { newLinkSecret } from '../../src-shared/verify/link-secret';
import { parseArgs } from './parse-args';
import { browserReceiveLine, receiveCommandLine } from './receive-command-line';

/** What a shell hands the program for the printed line: a key is base64url, nothing to quote. */
function argvOf(line: string): string[] {
  const [program, ...args] = line.split(' ');
  expect(program).toBe('ferry');
  return args;
}

describe('the receive line a sender prints', () => {
  it('parses back to the same code and key, whatever the key (about 1 in 64 starts with -)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: LINK_SECRET_BYTES, maxLength: LINK_SECRET_BYTES }),
        fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
        (bytes, picks) => {
          const key = newLinkSecret(() => bytes);
          let pick = 0;
          const code = generateCode((max) => picks[pick++] % max);
          const parsed = parseArgs(argvOf(receiveCommandLine(code, key)), {}, '/home/ana');
          expect(parsed).toMatchObject({ ok: true, command: { kind: 'receive', code, key } });
        },
      ),
      // Keys with a leading `-` always among the cases, not left to chance.
      { examples: [[new Uint8Array(LINK_SECRET_BYTES).fill(0xfb), [0, 1, 2]]] },
    );
  });
});

describe('the browser line a sender prints beside it', () => {
  it('names the words a person types in the app or the web client', () => {
    expect(browserReceiveLine('acid-otter-plank', 'k'.repeat(22), undefined)).toBe(
      'Or in the Ferry app or its web page, choose Receive and type: acid-otter-plank',
    );
  });

  it("from a LAN room, gives the room's own web address with the code and key filled in", () => {
    expect(browserReceiveLine('acid-otter-plank', 'k'.repeat(22), 'http://192.168.1.20:3001')).toBe(
      `Or in a browser on this network, open: http://192.168.1.20:3001/#receive=acid-otter-plank&key=${'k'.repeat(22)}`,
    );
  });
});
