import { ESLint } from 'eslint';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const eslint = new ESLint();

// A cycle needs its modules on disk, where the rule resolves them. They go in a folder the
// `*.tmp.*` entry of .gitignore covers, one per case, so no case reads another's modules.
const probeRoot = path.resolve(`src-shared/import-cycle-probe.tmp.${process.pid}`);
afterAll(() => rm(probeRoot, { recursive: true, force: true }));

/** Writes `modules` (name → source) to a fresh folder and returns the cycle errors, per module. */
async function cycleErrors(caseName: string, modules: Record<string, string>): Promise<string[]> {
  const folder = path.join(probeRoot, caseName);
  await mkdir(folder, { recursive: true });
  const files = Object.keys(modules).map((name) => path.join(folder, `${name}.ts`));
  await Promise.all(Object.values(modules).map((code, i) => writeFile(files[i] ?? '', code)));
  const results = await eslint.lintFiles(files);
  return results.flatMap((result) =>
    result.messages
      .filter((message) => message.ruleId === 'import-x/no-cycle')
      .map(() => path.basename(result.filePath, '.ts')),
  );
}

describe('lint rejects every import cycle (docs/architecture.md, "Layers")', () => {
  it('a cycle of type-only imports', async () => {
    const errors = await cycleErrors('types', {
      a: "import type { B } from './b';\nexport interface A {\n  b?: B;\n}\n",
      b: "import { type A } from './a';\nexport interface B {\n  a?: A;\n}\n",
    });
    expect(errors.sort()).toEqual(['a', 'b']);
  });

  it('a cycle of value imports through a third module', async () => {
    const errors = await cycleErrors('values', {
      a: "import { b } from './b';\nexport const a = (): number => b + 1;\n",
      b: "import { c } from './c';\nexport const b = c;\n",
      c: "import { a } from './a';\nexport const c = 1;\nexport const useA = a;\n",
    });
    expect(errors.sort()).toEqual(['a', 'b', 'c']);
  });

  it('accepts imports that do not lead back', async () => {
    const errors = await cycleErrors('none', {
      a: "import type { B } from './b';\nimport { c } from './c';\nexport type A = B | typeof c;\n",
      b: "import { c } from './c';\nexport type B = typeof c;\n",
      c: 'export const c = 1;\n',
    });
    expect(errors).toEqual([]);
  });
});
