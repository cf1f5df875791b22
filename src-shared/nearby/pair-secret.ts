import * as v from 'valibot';
import { SAS_HEX_PATTERN } from '../protocol/limits';
import { roomIdFromDigest } from '../signaling/room-id';
import { toHex } from '../verify/file-digest';
import { hmacSha256, hmacSha256Now } from '../verify/hash-functions';
import { fromHex } from '../verify/part-sidecar';
import { newSecretIfAble } from '../verify/sas';
import { sameSecret } from '../verify/same-secret';

// The pair secret two remembered devices agree in-band, and what derives from it: the room they
// wait in for each other and the proof an invitation carries (docs/protocol.md, "Pair rooms").

const SECRET_CONTEXT = 'ferry-pair-v1\n';
const ROOM_CONTEXT = 'ferry-pair-room-v1';
const INVITE_CONTEXT = 'ferry-pair-invite-v1\n';

/** A pair secret or a share of one: 32 bytes in lowercase hex. */
export const PairSecretSchema = v.pipe(
  v.string(),
  v.regex(SAS_HEX_PATTERN, 'a pair secret is 32 bytes in lowercase hex'),
);

/**
 * A fresh share to announce beside `pair`, from the runtime's secure random source; undefined
 * when it has none (or a broken one), and then this side offers no `pair`.
 */
export const newPairShare = newSecretIfAble;

/** Both shares and both DTLS certificates of one connection, in the roles' order. */
export interface PairSecretInput {
  senderShare: string;
  receiverShare: string;
  senderFingerprint: string;
  receiverFingerprint: string;
}

/**
 * The secret both sides compute alike: HMAC-SHA256 keyed with both shares' 64 bytes (the
 * sender's first) over the context and both fingerprints, in lowercase hex. Binding it to the
 * certificates DTLS used means a middle that terminates DTLS ends up with two secrets that match
 * nobody's.
 */
export function pairSecret(input: PairSecretInput): string {
  const key = new Uint8Array([...hexBytes(input.senderShare), ...hexBytes(input.receiverShare)]);
  const message = `${SECRET_CONTEXT}${input.senderFingerprint}\n${input.receiverFingerprint}`;
  return toHex(hmacSha256Now(key, utf8.encode(message)));
}

/** The pair room of a secret: a UUID the server cannot tell from any other room id. */
export async function pairRoomId(secret: string): Promise<string> {
  return roomIdFromDigest(toHex(await hmacSha256(hexBytes(secret), utf8.encode(ROOM_CONTEXT))));
}

/** What an invitation to `roomId` carries to show it comes from the holder of `secret`. */
export async function inviteProof(secret: string, roomId: string): Promise<string> {
  const message = `${INVITE_CONTEXT}${roomId.toLowerCase()}`;
  return toHex(await hmacSha256(hexBytes(secret), utf8.encode(message)));
}

/** Whether `proof` is the one `secret` makes for `roomId`, compared in constant time. */
export async function inviteProofHolds(
  secret: string,
  roomId: string,
  proof: string,
): Promise<boolean> {
  return sameSecret(await inviteProof(secret, roomId), proof);
}

const utf8 = new TextEncoder();

function hexBytes(hex: string): Uint8Array {
  if (!v.is(PairSecretSchema, hex)) throw new RangeError('not 32 bytes in lowercase hex');
  return fromHex(hex);
}
