import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTool, skipLine, type RequiredTool } from './required-tools';

/**
 * `describe(title, body)` for a suite that needs `tool` (see required-tools.ts): it runs where
 * the tool is, is skipped with one line on stdout where it is not, and under CI=true is one
 * failing test naming what is missing.
 */
export function describeNeeding(tool: RequiredTool, title: string, body: () => void): void {
  const check = checkTool(tool);
  if (check.outcome === 'run') {
    describe(title, body);
    return;
  }
  if (check.outcome === 'fail') {
    describe(title, () => {
      it(`has what it needs: ${check.reason}`, () => {
        throw new Error(check.reason);
      });
    });
    return;
  }
  const file = expect.getState().testPath;
  const where = file === undefined ? title : `${relative(process.cwd(), file)} › ${title}`;
  // Straight to stdout: vitest's console capture would add a header line to it.
  process.stdout.write(`${skipLine(check.reason, where)}\n`);
  describe.skip(title, body);
}
