import { describe, expect, it } from 'vitest';
import { isRoomId } from '../../../src-shared/signaling/room-id';
import { newRoomId } from './room-id';

describe('a new room id', () => {
  it('is the browser’s own UUID where the page is a secure context', () => {
    const id = newRoomId({
      getRandomValues: (array) => array,
      randomUUID: () => 'from-the-browser',
    });
    expect(id).toBe('from-the-browser');
  });

  it('is still a version-4 UUID the server accepts on a plain-HTTP page without randomUUID', () => {
    const ids = Array.from({ length: 50 }, () =>
      newRoomId({ getRandomValues: (array) => crypto.getRandomValues(array) }),
    );
    for (const id of ids) {
      expect(isRoomId(id)).toBe(true);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
