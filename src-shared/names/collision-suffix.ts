import { splitExtension } from './split-extension';

/**
 * The name to try when `name` is taken: `report.pdf` becomes `report (1).pdf`, and an archive
 * keeps its double extension, `archive (1).tar.gz`, so the file still opens with the right
 * tool. Call it with the original name and increasing `n`, not with its own output.
 */
export function withCollisionSuffix(name: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`a collision suffix counts from 1, got ${n}`);
  }
  const { stem, extension } = splitExtension(name);
  return `${stem} (${n})${extension}`;
}
