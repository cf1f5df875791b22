import { describe, expect, it } from 'vitest';
import { commitmentTo } from '../verify/sas';
import { binaryFrame, textFrame, type Frame } from './frame';
import { LIST_WAIT_MS } from './limits';
import { LINK_REFUSED_REASON, LINK_UNPROVEN_REASON } from './peer-incompatible';
import {
  createReceiver,
  type ReceiverAction,
  type ReceiverConfig,
  type ReceiverMachine,
} from './receiver';
import { createSender, type SenderAction, type SenderConfig } from './sender';

// Both machines' side of docs/protocol.md, "Secret link": the sender's proof after its reveal,
// the receiver's checked against its own view and answered before its first ack, and no file
// data before both check out.
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const SENDER_NONCE = '5a'.repeat(32);
const RECEIVER_NONCE = 'c3'.repeat(32);
const COMMIT = await commitmentTo(SENDER_NONCE);
const WORDS = 'plum otter cask';
const SENDER_MAC = '1f'.repeat(32);
const RECEIVER_MAC = '2e'.repeat(32);
const WRONG_MAC = '00'.repeat(32);
const utf8 = new TextEncoder();
const text = (value: unknown): Frame => textFrame(JSON.stringify(value));
const fromNative = (value: unknown): Frame => binaryFrame(utf8.encode(JSON.stringify(value)));
const proof = (mac: string): Frame => text({ type: 'ferry-link-proof', mac });

const METADATA = text({
  type: 'metadata',
  id: 'f-1',
  fileName: 'notes.txt',
  fileSize: 5,
  index: 1,
  total: 1,
  totalBytes: 5,
  pv: 1,
  pvMin: 1,
});
const SENDER_CAPS = text({ type: 'ferry-caps', caps: ['verify', 'sas', 'link'], commit: COMMIT });
const REVEAL = text({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE });

function messages(actions: readonly (ReceiverAction | SenderAction)[]) {
  return actions.flatMap((action) => {
    if (action.type !== 'send') return [];
    const json =
      action.frame.kind === 'text'
        ? action.frame.text
        : new TextDecoder().decode(action.frame.bytes);
    return [JSON.parse(json) as Record<string, unknown>];
  });
}
const types = (actions: readonly (ReceiverAction | SenderAction)[]) =>
  actions.map((action) => action.type);
const intercepted = {
  phase: 'failed',
  code: 'ERR_LINK_MISMATCH',
  message: 'someone may be intercepting this connection',
};

describe('the receiver and the secret link', () => {
  function receiver(overrides: Partial<ReceiverConfig> = {}): ReceiverMachine {
    const machine = createReceiver({
      surface: 'native',
      caps: ['verify', 'sas', 'link'],
      sasNonce: RECEIVER_NONCE,
      holdsLinkSecret: true,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: true,
      ...overrides,
    });
    machine.handle({ type: 'channel-open' });
    return machine;
  }

  /** Caps, first metadata and the reveal are in; the words and the proofs are being worked out. */
  function revealed(overrides: Partial<ReceiverConfig> = {}) {
    const machine = receiver(overrides);
    machine.handle({ type: 'frame', frame: SENDER_CAPS });
    const answered = machine.handle({ type: 'frame', frame: METADATA });
    const actions = machine.handle({ type: 'frame', frame: REVEAL });
    return { machine, answered, actions };
  }

  it('names link only with a key, and proves it on the reveal beside the words', () => {
    const { answered, actions } = revealed();
    expect(messages(answered)).toEqual([
      { type: 'ferry-caps', caps: ['verify', 'sas', 'link'], nonce: RECEIVER_NONCE },
    ]);
    expect(actions).toEqual([
      { type: 'derive-words', senderNonce: SENDER_NONCE, receiverNonce: RECEIVER_NONCE },
      { type: 'prove-link', senderNonce: SENDER_NONCE, receiverNonce: RECEIVER_NONCE },
    ]);
    const keyless = receiver({ holdsLinkSecret: false });
    keyless.handle({ type: 'frame', frame: SENDER_CAPS });
    expect(messages(keyless.handle({ type: 'frame', frame: METADATA }))).toEqual([
      { type: 'ferry-caps', caps: ['verify', 'sas'], nonce: RECEIVER_NONCE },
    ]);
  });

  it('checks the sender’s proof, then sends its own before asking, and shows the link', () => {
    const { machine } = revealed();
    expect(machine.handle({ type: 'words-derived', words: WORDS, revealedCommit: COMMIT })).toEqual(
      [],
    );
    expect(machine.handle({ type: 'frame', frame: proof(SENDER_MAC) })).toEqual([]);
    const proved = machine.handle({
      type: 'link-proved',
      own: RECEIVER_MAC,
      expected: SENDER_MAC,
    });
    expect(messages(proved)).toEqual([{ type: 'ferry-link-proof', mac: RECEIVER_MAC }]);
    expect(types(proved)).toEqual(['send', 'clear-timer', 'ask-accept']);
    expect(machine.peerCheck).toEqual({ kind: 'link' });
    // Its own proof goes out before the first ack.
    const acked = machine.handle({ type: 'accepted' });
    expect(messages(acked).map((message) => message.type)).not.toContain('ferry-link-proof');
  });

  it('refuses a proof that does not check out: nothing asked, opened or acked, and the sender told', () => {
    const { machine } = revealed();
    machine.handle({ type: 'words-derived', words: WORDS, revealedCommit: COMMIT });
    machine.handle({ type: 'link-proved', own: RECEIVER_MAC, expected: SENDER_MAC });
    const refused = machine.handle({ type: 'frame', frame: proof(WRONG_MAC) });
    expect(types(refused)).not.toContain('ask-accept');
    expect(messages(refused)).toEqual([
      expect.objectContaining({ type: 'incompatible', reason: LINK_REFUSED_REASON }),
    ]);
    expect(machine.state).toEqual(intercepted);
  });

  it('refuses a malformed proof, and a second one', () => {
    const malformed = revealed().machine;
    malformed.handle({ type: 'frame', frame: text({ type: 'ferry-link-proof', mac: 'nope' }) });
    expect(malformed.state).toEqual(intercepted);
    const twice = revealed().machine;
    twice.handle({ type: 'frame', frame: proof(SENDER_MAC) });
    twice.handle({ type: 'frame', frame: proof(SENDER_MAC) });
    expect(twice.state).toEqual(intercepted);
  });

  it('treats a proof that never came as interception, not as unverified', () => {
    const { machine } = revealed();
    machine.handle({ type: 'words-derived', words: WORDS, revealedCommit: COMMIT });
    machine.handle({ type: 'link-proved', own: RECEIVER_MAC, expected: SENDER_MAC });
    const overdue = machine.handle({ type: 'timer-fired', timer: 'list' });
    expect(types(overdue)).not.toContain('ask-accept');
    expect(machine.state).toEqual(intercepted);
  });

  // A key is a requirement (issue 33): whoever cannot prove it gets no ack and no chance to send.
  const unproven = {
    phase: 'failed',
    code: 'ERR_LINK_MISMATCH',
    message:
      'someone may be intercepting this connection (the other device did not prove the link’s secret)',
  };
  const refusedUnproven = (actions: readonly ReceiverAction[]) => {
    expect(messages(actions)).toEqual([
      { type: 'incompatible', reason: LINK_UNPROVEN_REASON, ...LOCAL },
    ]);
    expect(types(actions)).not.toContain('ask-accept');
    expect(types(actions)).not.toContain('open-part');
  };

  it('refuses a sender that did not name link, on its first metadata, without asking anyone', () => {
    const machine = receiver();
    machine.handle({
      type: 'frame',
      frame: text({ type: 'ferry-caps', caps: ['verify', 'sas'], commit: COMMIT }),
    });
    refusedUnproven(machine.handle({ type: 'frame', frame: METADATA }));
    expect(machine.state).toEqual(unproven);
  });

  for (const surface of ['native', 'browser'] as const) {
    it(`refuses, on a ${surface} receiver, a spec-only sender that announced nothing`, () => {
      const machine = receiver({ surface, askBeforeAccepting: false });
      refusedUnproven(machine.handle({ type: 'frame', frame: METADATA }));
      expect(machine.state).toEqual(unproven);
    });
  }

  it('refuses even when this side could not draw a nonce, so could not offer link at all', () => {
    const machine = receiver({ sasNonce: undefined });
    machine.handle({ type: 'frame', frame: SENDER_CAPS });
    refusedUnproven(machine.handle({ type: 'frame', frame: METADATA }));
    expect(machine.state).toEqual(unproven);
  });

  it('serves a spec-only sender as before when this side holds no key', () => {
    const machine = receiver({ holdsLinkSecret: false, askBeforeAccepting: false });
    expect(types(machine.handle({ type: 'frame', frame: METADATA }))).toContain('open-part');
    expect(machine.peerCheck).toEqual({ kind: 'unverified' });
  });

  it('reads the sender’s link refusal back as interception', () => {
    const { machine } = revealed();
    machine.handle({
      type: 'frame',
      frame: text({ type: 'incompatible', reason: LINK_REFUSED_REASON, ...LOCAL }),
    });
    expect(machine.state).toEqual(intercepted);
  });
});

describe('the sender and the secret link', () => {
  const FILE = { id: 'f-1', fileName: 'notes.txt', fileSize: 5 };
  const ack = fromNative({ type: 'ack', id: 'f-1', offset: 0, ...LOCAL });
  const receiverCaps = (caps = ['verify', 'sas', 'link']): Frame =>
    fromNative({ type: 'ferry-caps', caps, nonce: RECEIVER_NONCE });

  function sender(overrides: Partial<SenderConfig> = {}) {
    const machine = createSender({
      files: [FILE],
      caps: ['verify', 'sas', 'link'],
      sas: { nonce: SENDER_NONCE, commit: COMMIT },
      holdsLinkSecret: true,
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
      ...overrides,
    });
    const opened = machine.handle({ type: 'channel-open', relayed: false });
    return { machine, opened };
  }

  it('offers link only beside sas and with a secret', () => {
    expect(messages(sender().opened)[0]).toMatchObject({ caps: ['verify', 'sas', 'link'] });
    expect(messages(sender({ holdsLinkSecret: false }).opened)[0]).toMatchObject({
      caps: ['verify', 'sas'],
    });
    expect(messages(sender({ sas: undefined }).opened)[0]).toMatchObject({ caps: ['verify'] });
  });

  it('sends its proof after the reveal, only to a receiver that named link', () => {
    const { machine } = sender();
    const revealed = machine.handle({ type: 'frame', frame: receiverCaps() });
    expect(types(revealed)).toEqual(['send', 'derive-words', 'prove-link']);
    const proved = machine.handle({ type: 'link-proved', own: SENDER_MAC, expected: RECEIVER_MAC });
    expect(messages(proved)).toEqual([{ type: 'ferry-link-proof', mac: SENDER_MAC }]);
    const plain = sender().machine;
    expect(types(plain.handle({ type: 'frame', frame: receiverCaps(['verify', 'sas']) }))).toEqual([
      'send',
      'derive-words',
    ]);
  });

  it('holds the first file’s data until the receiver’s proof checks out', () => {
    const { machine } = sender();
    machine.handle({ type: 'frame', frame: receiverCaps() });
    machine.handle({ type: 'words-derived', words: WORDS });
    expect(machine.peerCheck).toBeUndefined();
    machine.handle({ type: 'frame', frame: proof(RECEIVER_MAC) });
    const acked = machine.handle({ type: 'frame', frame: ack });
    expect(types(acked)).not.toContain('stream-file');
    expect(machine.state).toEqual({ phase: 'confirming', index: 0 });
    const proved = machine.handle({ type: 'link-proved', own: SENDER_MAC, expected: RECEIVER_MAC });
    expect(proved).toContainEqual({ type: 'stream-file', index: 0, offset: 0 });
    expect(machine.peerCheck).toEqual({ kind: 'link' });
  });

  it('refuses a receiver’s proof that does not check out, before any file data', () => {
    const { machine } = sender();
    machine.handle({ type: 'frame', frame: receiverCaps() });
    machine.handle({ type: 'words-derived', words: WORDS });
    machine.handle({ type: 'link-proved', own: SENDER_MAC, expected: RECEIVER_MAC });
    const refused = machine.handle({ type: 'frame', frame: proof(WRONG_MAC) });
    expect(types(refused)).not.toContain('stream-file');
    expect(messages(refused)).toEqual([
      expect.objectContaining({ type: 'incompatible', reason: LINK_REFUSED_REASON }),
    ]);
    expect(machine.state).toEqual(intercepted);
  });

  it('refuses a first ack that came without the receiver’s proof', () => {
    const { machine } = sender();
    machine.handle({ type: 'frame', frame: receiverCaps() });
    machine.handle({ type: 'words-derived', words: WORDS });
    machine.handle({ type: 'link-proved', own: SENDER_MAC, expected: RECEIVER_MAC });
    const acked = machine.handle({ type: 'frame', frame: ack });
    expect(types(acked)).not.toContain('stream-file');
    expect(machine.state).toEqual(intercepted);
  });

  it('reads the receiver’s link refusal back as interception', () => {
    const { machine } = sender();
    machine.handle({ type: 'frame', frame: receiverCaps() });
    machine.handle({
      type: 'frame',
      frame: fromNative({ type: 'incompatible', reason: LINK_REFUSED_REASON, ...LOCAL }),
    });
    expect(machine.state).toEqual(intercepted);
  });
});

describe('the secret link never reaches a receiver that waits for nothing', () => {
  it('is not asked of a receiver that named no link: it keeps the words', () => {
    const machine = createReceiver({
      surface: 'native',
      caps: ['verify', 'sas'],
      sasNonce: RECEIVER_NONCE,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: true,
    });
    machine.handle({ type: 'channel-open' });
    machine.handle({ type: 'frame', frame: SENDER_CAPS });
    const answered = machine.handle({ type: 'frame', frame: METADATA });
    expect(answered).toContainEqual({ type: 'set-timer', timer: 'list', ms: LIST_WAIT_MS });
    machine.handle({ type: 'frame', frame: REVEAL });
    // A stray proof is ignored, as every extension not agreed.
    expect(machine.handle({ type: 'frame', frame: proof(SENDER_MAC) })).toEqual([]);
    machine.handle({ type: 'words-derived', words: WORDS, revealedCommit: COMMIT });
    expect(machine.peerCheck).toEqual({ kind: 'words', words: WORDS });
  });
});
