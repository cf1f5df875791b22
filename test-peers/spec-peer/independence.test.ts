import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The spec peers exist to share nothing with Ferry: a behaviour both sides imported could be
// wrong on both and never show. This holds their modules to it (their tests may start Ferry's
// server: that is what the peers talk to).
const PEERS = ['../spec-peer', '../spec-browser-peer'].map((folder) =>
  fileURLToPath(new URL(folder, import.meta.url)),
);
const FERRY = /(^|\/)src-(shared|main|renderer)(\/|$)/;
const SPECIFIER = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

async function sources(folder: string): Promise<string[]> {
  const names = await readdir(folder, { recursive: true });
  return names
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(folder, name));
}

describe('the spec peers', () => {
  it('import nothing from src-shared, src-main or src-renderer', async () => {
    const imports: string[] = [];
    for (const folder of PEERS) {
      for (const file of await sources(folder)) {
        const text = await readFile(file, 'utf8');
        for (const [, specifier] of text.matchAll(SPECIFIER)) imports.push(`${file}: ${specifier}`);
      }
    }
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((line) => FERRY.test(line.split(': ')[1]))).toEqual([]);
  });
});
