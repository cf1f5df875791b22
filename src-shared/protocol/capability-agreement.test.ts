import { describe, expect, it } from 'vitest';
import type { Frame } from './frame';
import type { Capability, CapsMessage } from './messages';
import { ReceiverCaps } from './receiver-caps';
import { SenderCaps } from './sender-caps';

// Both halves of docs/protocol.md, "Capabilities".
const NONCE = 'a'.repeat(64);
const COMMIT = 'b'.repeat(64);
const REJOIN = '7e'.repeat(32);
const ALL: Capability[] = ['verify', 'resume', 'reconnect', 'sas', 'link', 'list', 'outcome'];
const json = (frame: Frame): unknown =>
  JSON.parse(frame.kind === 'text' ? frame.text : new TextDecoder().decode(frame.bytes));
const caps = (more: Partial<CapsMessage>): CapsMessage => ({
  type: 'ferry-caps',
  caps: ALL,
  ...more,
});

const receiver = (more = {}) =>
  new ReceiverCaps({
    caps: ALL,
    askBeforeAccepting: true,
    sasNonce: NONCE,
    holdsLinkSecret: true,
    framing: 'binary',
    ...more,
  });

describe("the receiver's capability agreement", () => {
  it('answers nothing to a sender that announced nothing', () => {
    expect(receiver().answer(true)).toEqual([]);
    expect(receiver().agreed.size).toBe(0);
  });

  it('agrees what both name, and answers once with its nonce until what it speaks changes', () => {
    const side = receiver();
    side.take(caps({ commit: COMMIT, rejoin: REJOIN }));
    expect([...side.agreed].sort()).toEqual([...ALL].sort());
    const [first] = side.answer(true);
    expect(first).toMatchObject({ type: 'send', early: true });
    expect(json(first.frame)).toEqual({ type: 'ferry-caps', caps: ALL, nonce: NONCE });
    expect(side.beforeAck()).toEqual([]);
    side.withoutResume();
    expect(side.agreed.has('resume') || side.agreed.has('reconnect')).toBe(false);
    expect(side.answer(false)).toHaveLength(1);
  });

  it('agrees no words without a commitment, no link without words, no reconnect without a secret', () => {
    const side = receiver();
    side.take(caps({}));
    expect(
      ['sas', 'link', 'reconnect'].filter((cap) => side.agreed.has(cap as Capability)),
    ).toEqual([]);
  });

  it('speaks no list when nobody is asked, and no words without a nonce', () => {
    const side = receiver({ askBeforeAccepting: false, sasNonce: undefined });
    expect(['list', 'sas', 'link'].some((cap) => side.speaks(cap as Capability))).toBe(false);
  });
});

describe("the sender's capability offer", () => {
  const files = [{ id: 'f-1', fileName: 'a.txt', fileSize: 3 }];

  it('adds no frame when it offers nothing', () => {
    const side = new SenderCaps({ caps: [], files });
    expect(side.announce()).toEqual([]);
    expect(side.announced).toBe(false);
  });

  it('offers words and links only with a nonce, a key, and reconnect only with a secret', () => {
    const side = new SenderCaps({ caps: ALL, files });
    expect(['sas', 'link', 'reconnect'].some((cap) => side.offers(cap as Capability))).toBe(false);
    const full = new SenderCaps({
      caps: ALL,
      files,
      sas: { nonce: NONCE, commit: COMMIT },
      holdsLinkSecret: true,
      rejoinSecret: REJOIN,
    });
    expect(json(full.announce()[0])).toEqual({
      type: 'ferry-caps',
      caps: ALL,
      commit: COMMIT,
      rejoin: REJOIN,
    });
  });

  it('agrees only what it offered, and lists its files once when the receiver asked', () => {
    const side = new SenderCaps({ caps: ['list', 'verify'], files });
    side.take(caps({ caps: ['list', 'resume'] }));
    expect([...side.agreed]).toEqual(['list']);
    expect(side.listFiles().map(json)).toEqual([
      { type: 'ferry-list', files: [{ name: 'a.txt', size: 3 }], more: false },
    ]);
    expect(side.listFiles()).toEqual([]);
  });
});

describe('the pair shares (docs/protocol.md, "Pair rooms")', () => {
  const files = [{ id: 'f-1', fileName: 'a.txt', fileSize: 3 }];
  const SENDER_SHARE = '5a'.repeat(32);
  const RECEIVER_SHARE = 'a5'.repeat(32);
  const WITH_PAIR: Capability[] = ['verify', 'device', 'pair'];

  it('rides beside `pair` both ways, and each side learns the other’s share', () => {
    const sender = new SenderCaps({ caps: WITH_PAIR, files, pairShare: SENDER_SHARE });
    const announced = json(sender.announce()[0]);
    expect(announced).toEqual({ type: 'ferry-caps', caps: WITH_PAIR, pair: SENDER_SHARE });
    const side = receiver({ caps: WITH_PAIR, pairShare: RECEIVER_SHARE });
    side.take(caps({ caps: WITH_PAIR, pair: SENDER_SHARE }));
    expect(side.senderPairShare).toBe(SENDER_SHARE);
    const [answer] = side.answer(true);
    expect(json(answer.frame)).toMatchObject({ caps: WITH_PAIR, pair: RECEIVER_SHARE });
    sender.take(caps({ caps: WITH_PAIR, pair: RECEIVER_SHARE }));
    expect(sender.peerPairShare).toBe(RECEIVER_SHARE);
  });

  it('is not offered without a share, nor agreed when the other side sent none', () => {
    expect(new SenderCaps({ caps: WITH_PAIR, files }).offers('pair')).toBe(false);
    expect(receiver({ caps: WITH_PAIR }).speaks('pair')).toBe(false);
    const side = receiver({ caps: WITH_PAIR, pairShare: RECEIVER_SHARE });
    side.take(caps({ caps: WITH_PAIR }));
    expect(side.agreed.has('pair')).toBe(false);
    expect(json(side.answer(true)[0].frame)).toEqual({
      type: 'ferry-caps',
      caps: ['verify', 'device'],
    });
    const sender = new SenderCaps({ caps: WITH_PAIR, files, pairShare: SENDER_SHARE });
    sender.take(caps({ caps: WITH_PAIR }));
    expect(sender.agreed.has('pair')).toBe(false);
    expect(sender.peerPairShare).toBeUndefined();
  });
});
