import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restrictedMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('the layering of DESIGN.md is enforced by lint', () => {
  it.each([
    ["import { readFile } from 'node:fs';", 'Node'],
    ["import { readFile } from 'fs';", 'Node'],
    ["import { app } from 'electron';", 'Electron'],
    ["import { createRoot } from 'react-dom/client';", 'DOM'],
    ["import { x } from '../src-main/engine';", 'src-main'],
    ["import { x } from '../../src-renderer/app/app';", 'src-renderer'],
  ])('src-shared rejects %s', async (code, word) => {
    const messages = await restrictedMessages(
      'src-shared/protocol/bad.ts',
      `${code}\nexport { };\n`,
    );
    expect(messages.join('\n')).toContain(word);
  });

  it('src-shared rejects clock reads and timers in the protocol core', async () => {
    const messages = await restrictedMessages(
      'src-shared/protocol/bad.ts',
      'export const now = Date.now();\nsetTimeout(() => undefined, 1);\n',
    );
    expect(messages).toHaveLength(2);
  });

  it('src-shared accepts imports within itself', async () => {
    const messages = await restrictedMessages(
      'src-shared/protocol/good.ts',
      "import { x } from './limits';\nexport const y = x;\n",
    );
    expect(messages).toEqual([]);
  });

  it('src-renderer rejects importing src-main', async () => {
    const messages = await restrictedMessages(
      'src-renderer/app/bad.ts',
      "import { x } from '../../src-main/engine';\nexport const y = x;\n",
    );
    expect(messages.join('\n')).toContain('never import each other');
  });

  it('src-main rejects importing src-renderer', async () => {
    const messages = await restrictedMessages(
      'src-main/cli/bad.ts',
      "import { x } from '../../src-renderer/app/app';\nexport const y = x;\n",
    );
    expect(messages.join('\n')).toContain('never import each other');
  });
});
