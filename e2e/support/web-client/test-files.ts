import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { RECEIPTS_NAME } from '../../../src-shared/verify/receipts';

/** A scratch folder per test, removed when the test is done with it. */
export function scratchDir(label: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `ferry-${label}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Writes a file of random bytes (so a swapped or shifted chunk cannot go unnoticed). */
export function randomFile(folder: string, relativePath: string, bytes: number): string {
  const path = join(folder, relativePath);
  mkdirSync(dirname(path), { recursive: true });
  const content = Buffer.alloc(bytes);
  for (let at = 0; at < bytes; at += 1 << 20) {
    randomBytes(Math.min(1 << 20, bytes - at)).copy(content, at);
  }
  writeFileSync(path, content);
  return path;
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Every file under `folder` as relative path → SHA-256, for byte-identical comparisons; the index
 * of received files a Ferry receiver keeps in each folder (src-shared/verify/receipts.ts) left out.
 */
export function digestTree(folder: string): Record<string, string> {
  const digests: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      if (name === RECEIPTS_NAME) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else digests[relative(folder, path).split('\\').join('/')] = sha256(path);
    }
  };
  walk(folder);
  return digests;
}
