import { describe, expect, it } from 'vitest';
import { commitmentTo, verificationWords } from '../verify/sas';
import { binaryFrame, textFrame, type Frame } from './frame';
import { LIST_WAIT_MS } from './limits';
import {
  createReceiver,
  type ReceiverAction,
  type ReceiverConfig,
  type ReceiverMachine,
} from './receiver';
import { createSender, type SenderAction, type SenderConfig, type SenderEvent } from './sender';

// Both machines' side of docs/protocol.md, "Verification words": commit, answer, reveal, and
// nothing of a file before the words are known.
const LOCAL = { pv: 1, pvMin: 1, ver: '1.6.0' };
const SENDER_NONCE = '5a'.repeat(32);
const RECEIVER_NONCE = 'c3'.repeat(32);
const OTHER_NONCE = '77'.repeat(32);
const COMMIT = await commitmentTo(SENDER_NONCE);
const WORDS = 'plum otter cask';
const utf8 = new TextEncoder();
const text = (value: unknown): Frame => textFrame(JSON.stringify(value));
const fromNative = (value: unknown): Frame => binaryFrame(utf8.encode(JSON.stringify(value)));

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
const SENDER_CAPS = text({ type: 'ferry-caps', caps: ['verify', 'sas'], commit: COMMIT });
const reveal = (nonce = SENDER_NONCE): Frame => text({ type: 'ferry-sas-reveal', nonce });

/** Every frame an action list sends, parsed, whatever its framing. */
function messages(actions: readonly (ReceiverAction | SenderAction)[]) {
  return actions.flatMap((action) => {
    if (action.type !== 'send') return [];
    const json = action.frame.kind === 'text' ? action.frame.text : utf8Decode(action.frame.bytes);
    return [JSON.parse(json) as Record<string, unknown>];
  });
}

const utf8Decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const types = (actions: readonly (ReceiverAction | SenderAction)[]) =>
  actions.map((action) => action.type);

describe('the receiver and the verification words', () => {
  function receiver(overrides: Partial<ReceiverConfig> = {}): ReceiverMachine {
    const machine = createReceiver({
      surface: 'native',
      caps: ['verify', 'sas'],
      sasNonce: RECEIVER_NONCE,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: true,
      ...overrides,
    });
    machine.handle({ type: 'channel-open' });
    return machine;
  }

  /** Caps, first metadata and the reveal are in; the words are being derived. */
  function revealed(overrides: Partial<ReceiverConfig> = {}) {
    const machine = receiver(overrides);
    machine.handle({ type: 'frame', frame: SENDER_CAPS });
    machine.handle({ type: 'frame', frame: METADATA });
    const actions = machine.handle({ type: 'frame', frame: reveal() });
    return { machine, actions };
  }

  it('answers with its nonce at the first metadata, even when nobody will be asked, and waits', () => {
    for (const askBeforeAccepting of [true, false]) {
      const machine = receiver({ askBeforeAccepting });
      machine.handle({ type: 'frame', frame: SENDER_CAPS });
      const actions = machine.handle({ type: 'frame', frame: METADATA });
      expect(actions).toEqual([
        { type: 'clear-timer', timer: 'first-data' },
        {
          type: 'send',
          frame: fromNative({ type: 'ferry-caps', caps: ['verify', 'sas'], nonce: RECEIVER_NONCE }),
          early: true,
        },
        { type: 'set-timer', timer: 'list', ms: LIST_WAIT_MS },
      ]);
      expect(machine.peerCheck).toBeUndefined();
    }
  });

  it('asks for the words on the reveal, and asks the person only once they are derived', () => {
    const { machine, actions } = revealed();
    expect(actions).toEqual([
      { type: 'derive-words', senderNonce: SENDER_NONCE, receiverNonce: RECEIVER_NONCE },
    ]);
    const asked = machine.handle({ type: 'words-derived', words: WORDS, revealedCommit: COMMIT });
    expect(types(asked)).toEqual(['clear-timer', 'ask-accept']);
    expect(machine.peerCheck).toEqual({ kind: 'words', words: WORDS });
  });

  it('without a person, acknowledges only once the words are known', () => {
    const { machine } = revealed({ askBeforeAccepting: false });
    const accepted = machine.handle({
      type: 'words-derived',
      words: WORDS,
      revealedCommit: COMMIT,
    });
    expect(messages(accepted).map((message) => message.type)).toEqual(['ack']);
  });

  it('refuses a reveal that is not the nonce committed to: nothing is asked, opened or acked', () => {
    const { machine } = revealed();
    const actions = machine.handle({
      type: 'words-derived',
      words: WORDS,
      revealedCommit: 'e'.repeat(64),
    });
    expect(actions).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_SAS_MISMATCH' }),
    );
    expect(messages(actions)).toEqual([
      expect.objectContaining({
        type: 'incompatible',
        reason:
          'the receiving device refused the transfer: the nonce the sending device revealed is not the one it committed to',
      }),
    ]);
    expect(types(actions)).not.toContain('ask-accept');
    expect(types(actions)).not.toContain('open-part');
    expect(machine.peerCheck).toBeUndefined();
  });

  it('refuses a reveal from a sender that named sas but committed to nothing', () => {
    const machine = receiver();
    machine.handle({ type: 'frame', frame: text({ type: 'ferry-caps', caps: ['sas'] }) });
    machine.handle({ type: 'frame', frame: METADATA });
    expect(machine.peerCheck).toEqual({ kind: 'unverified' });
    const actions = machine.handle({ type: 'frame', frame: reveal() });
    expect(actions).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_SAS_MISMATCH' }),
    );
  });

  it('refuses a second reveal, and a malformed one', () => {
    const { machine } = revealed();
    expect(machine.handle({ type: 'frame', frame: reveal(OTHER_NONCE) })).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_SAS_MISMATCH' }),
    );
    const fresh = receiver();
    fresh.handle({ type: 'frame', frame: SENDER_CAPS });
    fresh.handle({ type: 'frame', frame: METADATA });
    expect(fresh.handle({ type: 'frame', frame: reveal('XYZ') })).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_SAS_MISMATCH' }),
    );
  });

  it('refuses a malformed commitment in the sender’s caps', () => {
    const machine = receiver();
    const bad = text({ type: 'ferry-caps', caps: ['sas'], commit: COMMIT.toUpperCase() });
    expect(machine.handle({ type: 'frame', frame: bad })).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_SAS_MISMATCH' }),
    );
  });

  it('treats a reveal that never came as a broken promise, not as unverified', () => {
    const machine = receiver();
    machine.handle({ type: 'frame', frame: SENDER_CAPS });
    machine.handle({ type: 'frame', frame: METADATA });
    const actions = machine.handle({ type: 'timer-fired', timer: 'list' });
    expect(actions).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_SAS_MISMATCH' }),
    );
    expect(types(actions)).not.toContain('ask-accept');
  });

  it('asks once both the file list and the words are in, whichever comes last', () => {
    const list = text({ type: 'ferry-list', files: [{ name: 'notes.txt', size: 5 }], more: false });
    const caps = text({ type: 'ferry-caps', caps: ['list', 'sas'], commit: COMMIT });
    for (const order of ['list first', 'words first'] as const) {
      const machine = receiver({ caps: ['list', 'sas'] });
      machine.handle({ type: 'frame', frame: caps });
      machine.handle({ type: 'frame', frame: METADATA });
      machine.handle({ type: 'frame', frame: reveal() });
      const words = { type: 'words-derived', words: WORDS, revealedCommit: COMMIT } as const;
      const first = machine.handle(order === 'list first' ? { type: 'frame', frame: list } : words);
      expect(types(first), order).not.toContain('ask-accept');
      const second = machine.handle(
        order === 'list first' ? words : { type: 'frame', frame: list },
      );
      expect(second, order).toContainEqual({
        type: 'ask-accept',
        offer: expect.objectContaining({ files: [{ path: 'notes.txt', size: 5 }] }),
      });
    }
  });

  it('against a sender that announced nothing: unverified at once, and the spec’s wire', () => {
    const machine = receiver({ askBeforeAccepting: false });
    const actions = machine.handle({ type: 'frame', frame: METADATA });
    expect(machine.peerCheck).toEqual({ kind: 'unverified' });
    expect(messages(actions)).toEqual([
      { type: 'ack', id: 'f-1', offset: 0, pv: 1, pvMin: 1, ver: '1.6.0' },
    ]);
  });

  it('without a nonce of its own, speaks no sas and ignores a reveal', () => {
    const machine = receiver({ sasNonce: undefined });
    machine.handle({ type: 'frame', frame: SENDER_CAPS });
    expect(machine.agreed.has('sas')).toBe(false);
    const asked = machine.handle({ type: 'frame', frame: METADATA });
    expect(types(asked)).toContain('ask-accept');
    expect(machine.peerCheck).toEqual({ kind: 'unverified' });
    expect(machine.handle({ type: 'frame', frame: reveal() })).toEqual([]);
  });
});

describe('the sender and the verification words', () => {
  const FILE = { id: 'f-1', fileName: 'notes.txt', fileSize: 5 };
  const ack = fromNative({ type: 'ack', id: 'f-1', offset: 0, ...LOCAL });
  const receiverCaps = (nonce = RECEIVER_NONCE): Frame =>
    fromNative({ type: 'ferry-caps', caps: ['verify', 'sas'], nonce });

  function sender(overrides: Partial<SenderConfig> = {}) {
    const machine = createSender({
      files: [FILE],
      caps: ['verify', 'sas'],
      sas: { nonce: SENDER_NONCE, commit: COMMIT },
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
      ...overrides,
    });
    const opened = machine.handle({ type: 'channel-open', relayed: false });
    return { machine, opened };
  }

  it('commits in its one announcement, and offers no sas without a nonce', () => {
    expect(messages(sender().opened)[0]).toEqual({
      type: 'ferry-caps',
      caps: ['verify', 'sas'],
      commit: COMMIT,
    });
    expect(messages(sender({ sas: undefined }).opened)[0]).toEqual({
      type: 'ferry-caps',
      caps: ['verify'],
    });
  });

  it('reveals once, on the receiver’s nonce, and derives the words', () => {
    const { machine } = sender();
    const actions = machine.handle({ type: 'frame', frame: receiverCaps() });
    expect(actions).toEqual([
      { type: 'send', frame: text({ type: 'ferry-sas-reveal', nonce: SENDER_NONCE }) },
      { type: 'derive-words', senderNonce: SENDER_NONCE, receiverNonce: RECEIVER_NONCE },
    ]);
    // A receiver that answers again (its target dropped resume) gets no second reveal.
    expect(machine.handle({ type: 'frame', frame: receiverCaps(OTHER_NONCE) })).toEqual([]);
  });

  it('holds the first file’s data until the words are known', () => {
    const { machine } = sender();
    machine.handle({ type: 'frame', frame: receiverCaps() });
    const acked = machine.handle({ type: 'frame', frame: ack });
    expect(types(acked)).not.toContain('stream-file');
    expect(machine.state).toEqual({ phase: 'confirming', index: 0 });
    const derived = machine.handle({ type: 'words-derived', words: WORDS });
    expect(derived).toContainEqual({ type: 'stream-file', index: 0, offset: 0 });
    expect(machine.peerCheck).toEqual({ kind: 'words', words: WORDS });
  });

  it('learns at the first ack that a receiver without a nonce cannot show words, and goes on', () => {
    for (const caps of [fromNative({ type: 'ferry-caps', caps: ['verify'] }), undefined]) {
      const { machine } = sender();
      if (caps !== undefined) machine.handle({ type: 'frame', frame: caps });
      const acked = machine.handle({ type: 'frame', frame: ack });
      expect(machine.peerCheck).toEqual({ kind: 'unverified' });
      expect(acked).toContainEqual({ type: 'stream-file', index: 0, offset: 0 });
      expect(messages(acked)).toEqual([]);
    }
  });

  it('with a person confirming, sends no data before they do', () => {
    const { machine } = sender({ confirmsPeer: true });
    machine.handle({ type: 'frame', frame: receiverCaps() });
    machine.handle({ type: 'words-derived', words: WORDS });
    expect(types(machine.handle({ type: 'frame', frame: ack }))).not.toContain('stream-file');
    expect(machine.handle({ type: 'peer-confirmed' })).toContainEqual({
      type: 'stream-file',
      index: 0,
      offset: 0,
    });
  });

  it('with a person confirming early, streams at the ack', () => {
    const { machine } = sender({ confirmsPeer: true });
    machine.handle({ type: 'frame', frame: receiverCaps() });
    machine.handle({ type: 'words-derived', words: WORDS });
    expect(machine.handle({ type: 'peer-confirmed' })).toEqual([]);
    expect(machine.handle({ type: 'frame', frame: ack })).toContainEqual({
      type: 'stream-file',
      index: 0,
      offset: 0,
    });
  });

  it('stops with a reason, before any data, when the person does not confirm', () => {
    const { machine } = sender({ confirmsPeer: true });
    machine.handle({ type: 'frame', frame: ack });
    expect(machine.peerCheck).toEqual({ kind: 'unverified' });
    const actions = machine.handle({ type: 'peer-rejected' });
    expect(types(actions)).not.toContain('stream-file');
    expect(actions).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_NOT_CONFIRMED' }),
    );
    expect(messages(actions)).toEqual([
      expect.objectContaining({
        type: 'incompatible',
        reason: 'the sending person did not confirm the verification words',
      }),
    ]);
  });

  it('refuses a malformed nonce in the receiver’s caps', () => {
    const { machine } = sender();
    const actions = machine.handle({ type: 'frame', frame: receiverCaps('nonce') });
    expect(actions).toContainEqual(
      expect.objectContaining({ type: 'fail', code: 'ERR_SAS_MISMATCH' }),
    );
  });
});

describe('both machines, over one connection', () => {
  const SENDER_PRINT = 'sha-256 AA:BB:CC:DD';
  const RECEIVER_PRINT = 'sha-256 11:22:33:44';

  /**
   * Runs the exchange until the receiver asks, with each side deriving its words from the
   * certificates it sees: `seenBySender` is the receiver certificate the sender's DTLS verified.
   */
  async function exchange(seenBySender: string, seenByReceiver: string) {
    const sender = createSender({
      files: [{ id: 'f-1', fileName: 'notes.txt', fileSize: 5 }],
      caps: ['sas'],
      sas: { nonce: SENDER_NONCE, commit: COMMIT },
      local: LOCAL,
      surface: 'native',
      remedySurface: 'cli',
    });
    const receiver = createReceiver({
      surface: 'native',
      caps: ['sas'],
      sasNonce: RECEIVER_NONCE,
      local: LOCAL,
      remedySurface: 'cli',
      askBeforeAccepting: true,
    });
    receiver.handle({ type: 'channel-open' });
    const pending: Promise<void>[] = [];
    const toReceiver = (actions: SenderAction[]): void => {
      for (const action of actions) {
        if (action.type === 'send')
          toSender(receiver.handle({ type: 'frame', frame: action.frame }));
        if (action.type === 'derive-words') {
          const words = verificationWords({
            ...action,
            senderFingerprint: SENDER_PRINT,
            receiverFingerprint: seenBySender,
          });
          pending.push(words.then((derived) => toReceiver(sender.handle(derivedBy(derived)))));
        }
      }
    };
    const toSender = (actions: ReceiverAction[]): void => {
      for (const action of actions) {
        if (action.type === 'send')
          toReceiver(sender.handle({ type: 'frame', frame: action.frame }));
        if (action.type === 'derive-words') {
          const derive = Promise.all([
            verificationWords({
              ...action,
              senderFingerprint: seenByReceiver,
              receiverFingerprint: RECEIVER_PRINT,
            }),
            commitmentTo(action.senderNonce),
          ]);
          pending.push(
            derive.then(([words, revealedCommit]) =>
              toSender(receiver.handle({ type: 'words-derived', words, revealedCommit })),
            ),
          );
        }
      }
    };
    toReceiver(sender.handle({ type: 'channel-open', relayed: false }));
    while (pending.length > 0) await pending.shift();
    return { sender: sender.peerCheck, receiver: receiver.peerCheck };
  }

  const derivedBy = (words: string): SenderEvent => ({ type: 'words-derived', words });

  it('shows the same words on both sides of an honest connection', async () => {
    const seen = await exchange(RECEIVER_PRINT, SENDER_PRINT);
    expect(seen.sender).toEqual(seen.receiver);
    expect(seen.sender?.kind).toBe('words');
  });

  it('shows different words when each side verified a certificate the other does not hold', async () => {
    const seen = await exchange('sha-256 EE:EE:EE:01', 'sha-256 EE:EE:EE:02');
    expect(seen.sender?.kind).toBe('words');
    expect(seen.receiver?.kind).toBe('words');
    expect(seen.sender).not.toEqual(seen.receiver);
  });
});
