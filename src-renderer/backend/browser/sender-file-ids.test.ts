import { describe, expect, it } from 'vitest';
import { senderFileId } from '../../../src-shared/verify/sender-file-id';
import { DEVICE_SALT_KEY, deviceSalt, sentFileIds, type SaltStorage } from './sender-file-ids';
import type { SourceFile } from './source-files';

function memoryStorage(): SaltStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
  };
}

const source = (path: string, size: number, lastModified: number): SourceFile => ({
  file: new File([new Uint8Array(size)], path.split('/').pop() ?? path, { lastModified }),
  path,
});

describe("the browser's stand-in for a device name", () => {
  it('is made once and kept in storage, so a reload finds it again', () => {
    const storage = memoryStorage();
    const salt = deviceSalt(() => storage);
    expect(salt).toMatch(/^[0-9a-f-]{36}$/);
    expect(storage.values.get(DEVICE_SALT_KEY)).toBe(salt);
    expect(deviceSalt(() => storage)).toBe(salt);
  });

  it("is the page's own where storage is blocked or refuses to keep it", () => {
    const blocked = (): SaltStorage => {
      throw new DOMException('blocked', 'SecurityError');
    };
    const full: SaltStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    const salt = deviceSalt(blocked);
    expect(deviceSalt(() => full)).toBe(salt);
    expect(deviceSalt(() => undefined)).toBe(salt);
  });
});

describe('the ids a browser announces for its files (docs/protocol.md, "Resume")', () => {
  it('hash the salt with the relative name, size and modification time', async () => {
    const files = [source('album/a.jpg', 3, 1000), source('album/b.jpg', 3, 1000)];
    const ids = await sentFileIds(files, 'salt');
    expect(ids).toEqual([
      await senderFileId({ device: 'salt', path: 'album/a.jpg', size: 3, modified: 1000 }),
      await senderFileId({ device: 'salt', path: 'album/b.jpg', size: 3, modified: 1000 }),
    ]);
    expect(new Set(ids).size).toBe(2);
  });

  it('are the same for the same file picked again, and new once it changed', async () => {
    const [id] = await sentFileIds([source('a.bin', 5, 1000)], 'salt');
    expect(await sentFileIds([source('a.bin', 5, 1000)], 'salt')).toEqual([id]);
    expect(await sentFileIds([source('a.bin', 5, 1001)], 'salt')).not.toEqual([id]);
    expect(await sentFileIds([source('a.bin', 5, 1000)], 'another browser')).not.toEqual([id]);
  });
});
