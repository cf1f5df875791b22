import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isRoomId } from '../signaling/room-id';
import {
  inviteProof,
  inviteProofHolds,
  newPairShare,
  pairRoomId,
  pairSecret,
  type PairSecretInput,
} from './pair-secret';

const print = (byte: string): string => `sha-256 ${Array(32).fill(byte).join(':')}`;

function input(): PairSecretInput {
  return {
    senderShare: newPairShare(randomBytes) ?? '',
    receiverShare: newPairShare(randomBytes) ?? '',
    senderFingerprint: print('AA'),
    receiverFingerprint: print('BB'),
  };
}

describe('the pair secret (docs/protocol.md, "Pair rooms")', () => {
  it('is 32 bytes of hex, the same from both shares on both sides', () => {
    const both = input();
    const secret = pairSecret(both);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    // Each side computes from the same input in the roles' order: the result is one secret.
    expect(pairSecret({ ...both })).toBe(secret);
  });

  it('differs when either share or either certificate differs', () => {
    const both = input();
    const secret = pairSecret(both);
    const other = newPairShare(randomBytes) ?? '';
    expect(pairSecret({ ...both, senderShare: other })).not.toBe(secret);
    expect(pairSecret({ ...both, receiverShare: other })).not.toBe(secret);
    // A middle that terminates DTLS sees its own certificate on one side.
    expect(pairSecret({ ...both, senderFingerprint: print('CC') })).not.toBe(secret);
    expect(pairSecret({ ...both, receiverFingerprint: print('CC') })).not.toBe(secret);
    // The roles' order counts: the shares swapped make another secret.
    expect(
      pairSecret({ ...both, senderShare: both.receiverShare, receiverShare: both.senderShare }),
    ).not.toBe(secret);
  });

  it('is not drawn without a random source, nor from one that gives the wrong amount', () => {
    expect(newPairShare(undefined)).toBeUndefined();
    expect(newPairShare(() => new Uint8Array(16))).toBeUndefined();
  });

  it('names one room id, UUID-shaped, that differs with the secret', async () => {
    const secret = pairSecret(input());
    const room = await pairRoomId(secret);
    expect(isRoomId(room)).toBe(true);
    expect(await pairRoomId(secret)).toBe(room);
    expect(await pairRoomId(pairSecret(input()))).not.toBe(room);
  });

  it('proves an invitation only with the secret and only for its room', async () => {
    const secret = pairSecret(input());
    const room = await pairRoomId(secret);
    const invited = '0b7d4b1e-1d2c-4c3a-9f00-123456789abc';
    const proof = await inviteProof(secret, invited);
    expect(await inviteProofHolds(secret, invited, proof)).toBe(true);
    expect(await inviteProofHolds(secret, invited.toUpperCase(), proof)).toBe(true);
    expect(await inviteProofHolds(secret, room, proof)).toBe(false);
    expect(await inviteProofHolds(pairSecret(input()), invited, proof)).toBe(false);
  });
});
