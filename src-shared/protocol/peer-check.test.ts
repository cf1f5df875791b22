import { describe, expect, it } from 'vitest';
import type { Capability } from './messages';
import type { PeerCheckStep } from './peer-check-step';
import { ReceiverPeerCheck } from './receiver-peer-check';
import { SenderPeerCheck } from './sender-peer-check';

// Both halves of docs/protocol.md, "Verification words" and "Secret link".
const SENDER_NONCE = 'a'.repeat(64);
const RECEIVER_NONCE = 'b'.repeat(64);
const COMMIT = 'c'.repeat(64);
const agreedTo = (caps: Capability[]) => () => new Set(caps);
const refusal = (step: PeerCheckStep | undefined) =>
  step?.kind === 'refuse' ? step.failure.code : undefined;
const settled = (step: PeerCheckStep) => step.kind === 'go' && step.settled;

const receiver = (caps: Capability[] = ['sas']) => {
  const check = new ReceiverPeerCheck({
    nonce: RECEIVER_NONCE,
    framing: 'binary',
    agreed: agreedTo(caps),
  });
  check.committed(COMMIT);
  return check;
};

describe("the receiver's peer check", () => {
  it('takes one reveal while the offer waits, and shows the words once its commitment holds', () => {
    const check = receiver();
    expect(check.heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, true).actions).toEqual([
      { type: 'derive-words', senderNonce: SENDER_NONCE, receiverNonce: RECEIVER_NONCE },
    ]);
    const derived = { type: 'words-derived', words: 'one two', revealedCommit: COMMIT } as const;
    expect(settled(check.answer(derived, true))).toBe(true);
    expect(check.check).toEqual({ kind: 'words', words: 'one two' });
  });

  it('refuses a nonce that is not the one committed to, a second reveal, or one out of turn', () => {
    const wrong = receiver();
    wrong.heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, true);
    const derived = { type: 'words-derived', words: 'w', revealedCommit: 'd'.repeat(64) } as const;
    expect(refusal(wrong.answer(derived, true))).toBe('ERR_SAS_MISMATCH');
    const twice = receiver();
    twice.heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, true);
    expect(refusal(twice.heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, true))).toBe(
      'ERR_SAS_MISMATCH',
    );
    expect(
      refusal(receiver().heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, false)),
    ).toBe('ERR_SAS_MISMATCH');
  });

  it('refuses a sender that did not reveal in time, and one that never agreed to prove a held key', () => {
    expect(refusal(receiver().overdue())).toBe('ERR_SAS_MISMATCH');
    expect(refusal(receiver().atFirstFile(true))).toBe('ERR_LINK_MISMATCH');
  });

  it('shows nothing of a sender that agreed no words', () => {
    const check = receiver([]);
    expect(check.atFirstFile(false).kind).toBe('go');
    expect(check.check).toEqual({ kind: 'unverified' });
    expect(check.heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, true).kind).toBe(
      'refuse',
    );
  });

  it('counts the link only once the sender proved it, then sends its own proof', () => {
    const check = receiver(['sas', 'link']);
    check.heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, true);
    const derived = { type: 'words-derived', words: 'w', revealedCommit: COMMIT } as const;
    expect(settled(check.answer(derived, true))).toBe(false);
    check.answer({ type: 'link-proved', own: 'own', expected: 'theirs' }, true);
    expect(refusal(check.heard({ type: 'ferry-link-proof', mac: 'forged' }, true))).toBe(
      'ERR_LINK_MISMATCH',
    );
    const honest = receiver(['sas', 'link']);
    honest.heard({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }, true);
    honest.answer(derived, true);
    honest.answer({ type: 'link-proved', own: 'own', expected: 'theirs' }, true);
    const proved = honest.heard({ type: 'ferry-link-proof', mac: 'theirs' }, true);
    expect(settled(proved)).toBe(true);
    expect(proved.actions).toMatchObject([{ type: 'send', early: true }]);
    expect(honest.check).toEqual({ kind: 'link' });
  });
});

describe("the sender's peer check", () => {
  const sender = (caps: Capability[], confirmsPeer = false) =>
    new SenderPeerCheck({
      sas: { nonce: SENDER_NONCE, commit: COMMIT },
      confirmsPeer,
      agreed: agreedTo(caps),
    });
  const answer = { type: 'ferry-caps', caps: ['sas'], nonce: RECEIVER_NONCE } as const;

  it('reveals once to a receiver that gave its nonce, and holds data until the words are known', () => {
    const check = sender(['sas']);
    expect(check.answered({ ...answer, caps: ['sas'] }).actions.map((a) => a.type)).toEqual([
      'send',
      'derive-words',
    ]);
    expect(check.answered({ ...answer, caps: ['sas'] }).actions).toEqual([]);
    expect(check.holdsData).toBe(true);
    expect(settled(check.answer({ type: 'words-derived', words: 'w' }))).toBe(true);
    expect(check.holdsData).toBe(false);
  });

  it('holds data until the person confirmed, when a person confirms', () => {
    const check = sender(['sas'], true);
    check.answered({ ...answer, caps: ['sas'] });
    check.answer({ type: 'words-derived', words: 'w' });
    expect(check.holdsData).toBe(true);
    expect(settled(check.confirmed())).toBe(true);
    expect(check.holdsData).toBe(false);
  });

  it('calls a receiver that gave no nonce unverified, and refuses one that did not prove the link', () => {
    const silent = sender(['sas']);
    silent.atFirstAck();
    expect(silent.check).toEqual({ kind: 'unverified' });
    const linked = sender(['sas', 'link']);
    linked.answered({ ...answer, caps: ['sas', 'link'] });
    expect(refusal(linked.atFirstAck())).toBe('ERR_LINK_MISMATCH');
  });

  it('sends its own proof before refusing a receiver whose proof does not match', () => {
    const check = sender(['sas', 'link']);
    check.answered({ ...answer, caps: ['sas', 'link'] });
    check.linkProof('forged', true);
    const step = check.answer({ type: 'link-proved', own: 'own', expected: 'theirs' });
    expect(refusal(step)).toBe('ERR_LINK_MISMATCH');
    expect(step.actions.map((a) => a.type)).toEqual(['send']);
  });

  it('refuses unusable verification input only when it verifies', () => {
    const reveal = { type: 'ferry-sas-reveal', problem: 'nonce is not 64 lowercase hex digits' };
    expect(refusal(sender(['sas']).unusable(reveal))).toBe('ERR_SAS_MISMATCH');
    const silent = new SenderPeerCheck({
      sas: undefined,
      confirmsPeer: false,
      agreed: agreedTo([]),
    });
    expect(silent.unusable(reveal)?.kind).toBe('go');
    expect(sender(['sas']).unusable({ type: 'ack', problem: 'offset is not a byte count' })).toBe(
      undefined,
    );
  });
});
