import { describe, expect, it } from 'vitest';
import type { Capability } from '../protocol/messages';
import type { PeerCheck, TransferView } from '../transfer/transfer-view';
import { verificationWords, type PeerFingerprints } from '../verify/sas';
import type { DeviceSetting } from '../devices/peer-identity';
import { directoryOf, remember } from '../devices/remembered-devices';
import type { FileSource } from './file-source';
import { runReceiveSession } from './receive-session';
import type { SaveTarget } from './save-target';
import { runSendSession } from './send-session';
import { ManualClock } from './testing/manual-clock';
import { ScriptedChannel } from './testing/scripted-channel';

// The session core's side of docs/protocol.md, "Verification words": each side derives the words
// from the certificates its own connection reports, shows them before any file data moves, and
// a sender whose person confirms sends nothing before they did.
const CAPS: readonly Capability[] = ['verify', 'sas', 'device'];
const SENDER_CERT = 'sha-256 AA:BB:CC:DD:EE:FF';
const RECEIVER_CERT = 'sha-256 01:02:03:04:05:06';
const CONTENT = new TextEncoder().encode('hello');
// Hashing runs on Node's thread pool, so a turn of the event loop is not always enough for it.
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2));
/** Turns in a row with nothing moving before the exchange counts as over. */
const QUIET_TURNS = 10;
const MAX_TURNS = 2500;

/** Counting up from `seed`, so each side draws its own nonce and a test can repeat it. */
function counter(seed: number): (count: number) => Uint8Array {
  return (count) => Uint8Array.from({ length: count }, (_, i) => (seed + i) % 256);
}

const SOURCE: FileSource = {
  name: 'hello.txt',
  size: CONTENT.byteLength,
  async open(offset) {
    let done = offset >= CONTENT.byteLength;
    return {
      get done() {
        return done;
      },
      async next() {
        done = true;
        return { kind: 'bytes', bytes: CONTENT.subarray(offset) };
      },
      change: async () => undefined,
      close: async () => undefined,
    };
  },
};

function memoryTarget(): { target: SaveTarget; written: () => number } {
  let written = 0;
  return {
    written: () => written,
    target: {
      async open() {},
      async write(_index, bytes) {
        written += bytes.byteLength;
      },
      async commit() {
        return { name: 'hello.txt' };
      },
      async discard() {},
    },
  };
}

interface PairOptions {
  /** What each side's connection reports; a man in the middle makes them disagree. */
  senderSees?: PeerFingerprints | undefined;
  receiverSees?: PeerFingerprints | undefined;
  senderCaps?: readonly Capability[];
  receiverCaps?: readonly Capability[];
  confirmPeer?: (check: PeerCheck) => Promise<boolean>;
  /** Each side's name and remembered devices (docs/protocol.md, "Remembered devices"). */
  senderDevices?: DeviceSetting;
  receiverDevices?: DeviceSetting;
}

/** A sender session and a receiver session whose channels are joined; the receiver accepts. */
function pair(options: PairOptions = {}) {
  const senderChannel = new ScriptedChannel(
    0,
    'senderSees' in options ? options.senderSees : { local: SENDER_CERT, remote: RECEIVER_CERT },
  );
  const receiverChannel = new ScriptedChannel(
    0,
    'receiverSees' in options
      ? options.receiverSees
      : { local: RECEIVER_CERT, remote: SENDER_CERT },
  );
  const senderViews: TransferView[] = [];
  const receiverViews: TransferView[] = [];
  const storage = memoryTarget();
  const clock = new ManualClock();
  const cancelled = new AbortController().signal;
  void runSendSession({
    channel: senderChannel,
    clock,
    surface: 'native',
    sources: [SOURCE],
    announced: [{ id: 'f-1', fileName: 'hello.txt', fileSize: CONTENT.byteLength }],
    caps: options.senderCaps ?? CAPS,
    randomBytes: counter(1),
    ...(options.confirmPeer === undefined ? {} : { confirmPeer: options.confirmPeer }),
    ...(options.senderDevices === undefined ? {} : { devices: options.senderDevices }),
    local: { pv: 1, pvMin: 1, ver: '1.0.0' },
    remedySurface: 'cli',
    code: 'plum-otter-cask',
    publish: (view) => senderViews.push(view),
    cancelled,
    started: () => undefined,
  });
  void runReceiveSession({
    channel: receiverChannel,
    clock,
    surface: 'native',
    caps: options.receiverCaps ?? CAPS,
    randomBytes: counter(101),
    ...(options.receiverDevices === undefined ? {} : { devices: options.receiverDevices }),
    local: { pv: 1, pvMin: 1, ver: '1.0.0' },
    remedySurface: 'cli',
    acceptance: {
      ask: true,
      destination: async () => 'Downloads',
      choose: async () => storage.target,
    },
    publish: (view) => receiverViews.push(view),
    cancelled,
    started: () => undefined,
  });
  let toReceiver = 0;
  let toSender = 0;
  /**
   * Carries what each side sent to the other until `until` holds and then nothing moves any
   * more, or a limit passes: hashing runs on a thread pool, whose answer has no frame to wait on.
   */
  const run = async (until: () => boolean = () => true): Promise<void> => {
    for (let turn = 0, quiet = 0; turn < MAX_TURNS && (quiet < QUIET_TURNS || !until()); turn++) {
      await settle();
      const moving =
        senderChannel.sent.length > toReceiver || receiverChannel.sent.length > toSender;
      for (; toReceiver < senderChannel.sent.length; toReceiver += 1) {
        receiverChannel.receive(senderChannel.sent[toReceiver]);
      }
      for (; toSender < receiverChannel.sent.length; toSender += 1) {
        senderChannel.receive(receiverChannel.sent[toSender]);
      }
      quiet = moving ? 0 : quiet + 1;
    }
  };
  return { senderChannel, senderViews, receiverViews, storage, run };
}

const offerOf = (views: TransferView[]) =>
  views.flatMap((view) => (view.phase === 'awaiting-acceptance' ? [view.offer] : []))[0];
const waitingChecks = (views: TransferView[]) =>
  views.flatMap((view) =>
    view.phase === 'waiting-for-acceptance' && view.peerCheck ? [view.peerCheck] : [],
  );

describe('the session core and the verification words', () => {
  it('shows both people the same words, derived from the connection, before any file data', async () => {
    const { senderViews, receiverViews, storage, run } = pair();
    await run(() => storage.written() === CONTENT.byteLength);
    const offered = offerOf(receiverViews)?.peerCheck;
    const [shown] = waitingChecks(senderViews);
    expect(offered).toEqual(shown);
    // The sender's certificate first, as the sender's nonce (counting from 1) and the
    // receiver's (from 101).
    const hex = (seed: number) =>
      Array.from({ length: 32 }, (_, i) => (seed + i).toString(16).padStart(2, '0')).join('');
    expect(offered).toEqual({
      kind: 'words',
      words: await verificationWords({
        senderNonce: hex(1),
        receiverNonce: hex(101),
        senderFingerprint: SENDER_CERT,
        receiverFingerprint: RECEIVER_CERT,
      }),
    });
    // The words stay in sight while the file moves, and only then did it move.
    const firstProgress = senderViews.findIndex((view) => view.phase === 'transferring');
    const firstCheck = senderViews.findIndex(
      (view) => view.phase === 'waiting-for-acceptance' && view.peerCheck !== undefined,
    );
    expect(firstCheck).toBeGreaterThanOrEqual(0);
    expect(firstProgress).toBeGreaterThan(firstCheck);
    expect(senderViews[firstProgress]).toMatchObject({ peerCheck: shown });
    expect(receiverViews.find((view) => view.phase === 'transferring')).toMatchObject({
      peerCheck: shown,
    });
    expect(storage.written()).toBe(CONTENT.byteLength);
  });

  it('shows different words when each side verified another certificate than the other holds', async () => {
    const { senderViews, receiverViews, run } = pair({
      senderSees: { local: SENDER_CERT, remote: 'sha-256 EE:EE:EE:EE:EE:01' },
      receiverSees: { local: RECEIVER_CERT, remote: 'sha-256 EE:EE:EE:EE:EE:02' },
    });
    await run(() => offerOf(receiverViews) !== undefined && waitingChecks(senderViews).length > 0);
    const offered = offerOf(receiverViews)?.peerCheck;
    const [shown] = waitingChecks(senderViews);
    expect(offered?.kind).toBe('words');
    expect(shown?.kind).toBe('words');
    expect(offered).not.toEqual(shown);
  });

  it('says "not verified" on both sides when the receiver speaks no sas, and the file still moves', async () => {
    const { senderViews, receiverViews, storage, run } = pair({ receiverCaps: ['verify'] });
    await run(() => storage.written() === CONTENT.byteLength);
    expect(offerOf(receiverViews)?.peerCheck).toEqual({ kind: 'unverified' });
    expect(waitingChecks(senderViews)).toEqual([{ kind: 'unverified' }]);
    expect(storage.written()).toBe(CONTENT.byteLength);
  });

  it('offers no words over a connection that cannot tell its certificates', async () => {
    const { senderChannel, receiverViews, run } = pair({ senderSees: undefined });
    await run(() => offerOf(receiverViews) !== undefined);
    expect(senderChannel.messages[0]).toEqual({ type: 'ferry-caps', caps: ['verify'] });
    expect(offerOf(receiverViews)?.peerCheck).toEqual({ kind: 'unverified' });
  });

  it('asks the sending person with the words shown, and sends no data before the answer', async () => {
    let answer: (confirmed: boolean) => void = () => undefined;
    const asked: PeerCheck[] = [];
    const { senderChannel, senderViews, receiverViews, storage, run } = pair({
      confirmPeer: (check) => {
        asked.push(check);
        return new Promise((resolve) => (answer = resolve));
      },
    });
    await run(() => asked.length > 0 && offerOf(receiverViews) !== undefined);
    expect(asked).toEqual(waitingChecks(senderViews));
    expect(senderChannel.dataBytes).toBe(0);
    answer(true);
    await run(() => storage.written() === CONTENT.byteLength);
    expect(storage.written()).toBe(CONTENT.byteLength);
  });

  it('stops before any data when the sending person says the words differ', async () => {
    const { senderChannel, senderViews, receiverViews, storage, run } = pair({
      confirmPeer: async () => false,
    });
    await run(() => receiverViews.at(-1)?.phase === 'failed');
    expect(senderChannel.dataBytes).toBe(0);
    expect(storage.written()).toBe(0);
    expect(senderViews.at(-1)).toMatchObject({ phase: 'failed', code: 'ERR_NOT_CONFIRMED' });
    expect(receiverViews.at(-1)).toMatchObject({
      phase: 'failed',
      code: 'ERR_PEER_ABORTED',
      message: 'the sending person did not confirm the verification words',
    });
  });
});

const knowing = (ownName: string, fingerprint?: string, name = ''): DeviceSetting => ({
  ownName,
  directory: directoryOf(fingerprint === undefined ? [] : remember([], fingerprint, name, 0)),
});
const doneOf = (views: TransferView[]) => {
  const last = views.at(-1);
  return last?.phase === 'done' ? last : undefined;
};

describe('the session core and remembered devices', () => {
  it('names each device to the other beside `device`, and says who was on the other end when done', async () => {
    const { senderViews, receiverViews, storage, run } = pair({
      senderDevices: knowing('Ana laptop'),
      receiverDevices: knowing('Bea phone'),
    });
    await run(() => storage.written() === CONTENT.byteLength && doneOf(senderViews) !== undefined);
    const words = offerOf(receiverViews)?.peerCheck;
    expect(words?.kind).toBe('words');
    expect(doneOf(receiverViews)?.peer).toEqual({
      fingerprint: SENDER_CERT,
      check: words,
      announcedName: 'Ana laptop',
      // Both ends send a release string, as the command line does.
      program: 'command-line',
    });
    expect(doneOf(senderViews)?.peer).toEqual({
      fingerprint: RECEIVER_CERT,
      check: words,
      announcedName: 'Bea phone',
      program: 'command-line',
    });
  });

  it('announces no name without a device setting, and hears none from a side that has none', async () => {
    const { senderChannel, receiverViews, storage, run } = pair({
      receiverDevices: knowing('Bea phone'),
    });
    await run(
      () => storage.written() === CONTENT.byteLength && doneOf(receiverViews) !== undefined,
    );
    expect(senderChannel.messages[0]).toMatchObject({
      type: 'ferry-caps',
      caps: ['verify', 'sas'],
    });
    expect(senderChannel.messages[0]).not.toHaveProperty('name');
    expect(doneOf(receiverViews)?.peer).not.toHaveProperty('announcedName');
  });

  it('shows a remembered device by its name, and asks no confirmation for it', async () => {
    const asked: PeerCheck[] = [];
    const { senderChannel, senderViews, receiverViews, storage, run } = pair({
      senderDevices: knowing('Ana laptop', RECEIVER_CERT, 'Bea'),
      receiverDevices: knowing('Bea phone', SENDER_CERT, 'Ana'),
      confirmPeer: async (check) => {
        asked.push(check);
        return false;
      },
    });
    await run(() => storage.written() === CONTENT.byteLength);
    const offered = offerOf(receiverViews)?.peerCheck;
    expect(offered).toMatchObject({ kind: 'device', name: 'Ana', fingerprint: SENDER_CERT });
    expect(waitingChecks(senderViews)).toEqual([
      { kind: 'device', name: 'Bea', fingerprint: RECEIVER_CERT, words: expect.any(String) },
    ]);
    // The words stay beside the name, for a person on the other side who has not remembered.
    expect(offered?.kind === 'device' && offered.words).toMatch(/^[a-z]+ [a-z]+ [a-z]+$/);
    expect(asked).toEqual([]);
    expect(senderChannel.dataBytes).toBe(CONTENT.byteLength);
  });

  it('does not name a stranger after a device it remembers: another certificate is another device', async () => {
    const { receiverViews, run } = pair({
      receiverDevices: knowing('Bea phone', 'sha-256 AA:BB:CC:DD:EE:00', 'Ana'),
    });
    await run(() => offerOf(receiverViews) !== undefined);
    expect(offerOf(receiverViews)?.peerCheck.kind).toBe('words');
  });
});
