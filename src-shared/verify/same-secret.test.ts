import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { sameSecret } from './same-secret';

const PROOF = '1f'.repeat(32);

describe('sameSecret', () => {
  it('is true only for the same string', () => {
    expect(sameSecret(PROOF, PROOF)).toBe(true);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret(PROOF, `0${PROOF.slice(1)}`)).toBe(false);
    expect(sameSecret(PROOF, `${PROOF.slice(0, -1)}0`)).toBe(false);
    expect(sameSecret(PROOF, PROOF.slice(0, -2))).toBe(false);
    expect(sameSecret(PROOF.slice(0, -2), PROOF)).toBe(false);
    expect(sameSecret('', PROOF)).toBe(false);
  });
});

// Timing cannot be asserted on a shared machine, so the rule is held by lint instead: every
// secret-derived value compared with an equality operator is refused (eslint.config.js).
describe('lint refuses an equality operator on a commitment, a MAC or a proof', () => {
  const eslint = new ESLint();
  async function secretComparisons(filePath: string, code?: string): Promise<number[]> {
    const [result] =
      code === undefined
        ? await eslint.lintFiles([filePath])
        : await eslint.lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((message) => message.message.includes('sameSecret'))
      .map((message) => message.line);
  }

  it.each([
    'if (senderProof !== expectedProof) refuse();',
    'if (revealedCommit !== this.#senderCommit) refuse();',
    'if (message.mac === expectedMac) accept();',
    'if (a.commitment == b) accept();',
  ])('%s', async (line) => {
    const code = `declare const refuse: () => void, accept: () => void;\n${line}\n`;
    expect(await secretComparisons('src-shared/protocol/example.ts', code)).toContain(2);
  });

  it('but not a check for a value that has not arrived', async () => {
    const code =
      'declare const senderProof: string | undefined;\nexport const has = senderProof !== undefined || senderProof === null;\n';
    expect(await secretComparisons('src-shared/protocol/example.ts', code)).toEqual([]);
  });

  it.each(['src-shared/protocol/receiver.ts', 'src-shared/protocol/sender.ts'])(
    '%s compares its commitment and proofs with sameSecret',
    async (file) => {
      expect(await secretComparisons(file)).toEqual([]);
    },
  );
});
