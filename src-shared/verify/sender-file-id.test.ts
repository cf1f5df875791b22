import { describe, expect, it } from 'vitest';
import { base64url, senderFileId } from './sender-file-id';

describe('a sender\'s file id (docs/protocol.md, "Resume")', () => {
  const facts = {
    device: 'laptop',
    path: 'album/beach.jpg',
    size: 1234,
    modified: 1_700_000_000_123,
  };

  it('is 128 bits in base64url, the same for the same facts', async () => {
    const id = await senderFileId(facts);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await senderFileId({ ...facts })).toBe(id);
  });

  it.each([
    ['device', { device: 'phone' }],
    ['path', { path: 'album/beach (1).jpg' }],
    ['size', { size: 1235 }],
    ['modification time', { modified: 1_700_000_000_124 }],
  ])('changes with the %s', async (_, change) => {
    expect(await senderFileId({ ...facts, ...change })).not.toBe(await senderFileId(facts));
  });

  it.each([0, 1, 2, 3, 4, 5, 16, 32])('writes %i bytes as Node writes base64url', (length) => {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + 13) & 0xff);
    expect(base64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
  });
});
