import { describe, expect, it } from 'vitest';
import { isRoomId } from './room-id';

describe('a room id is a canonical UUID of any version, in either case', () => {
  it.each([
    '3f1c2a9e-8b7d-4c6e-9f00-123456789abc',
    '3F1C2A9E-8B7D-4C6E-9F00-123456789ABC',
    '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
    '00000000-0000-0000-0000-000000000000',
  ])('accepts %s', (id) => {
    expect(isRoomId(id)).toBe(true);
  });

  it.each([
    '3f1c2a9e8b7d4c6e9f00123456789abc',
    '{3f1c2a9e-8b7d-4c6e-9f00-123456789abc}',
    ' 3f1c2a9e-8b7d-4c6e-9f00-123456789abc',
    '3f1c2a9e-8b7d-4c6e-9f00-123456789abg',
    'urn:uuid:3f1c2a9e-8b7d-4c6e-9f00-123456789abc',
    '',
    42,
    null,
  ])('rejects %j', (id) => {
    expect(isRoomId(id)).toBe(false);
  });
});
