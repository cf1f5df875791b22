import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PairedDevice, PairRooms, Reach } from '../../src-shared/nearby/nearby-ports';
import { createPairRooms } from '../../src-shared/nearby/pair-rooms';
import { pairRoomId } from '../../src-shared/nearby/pair-secret';
import { PAIR_ROOM_RETRY_MS } from '../../src-shared/nearby/nearby-limits';
import type { Clock } from '../../src-shared/session/ports';
import { ManualClock } from '../../src-shared/session/testing/manual-clock';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { openInstallation, type Installation } from '../devices/installation';
import { within } from '../signaling-server/test-support/within';
import { receiveFiles, sendFiles, type FinalState } from '.';
import { DEFAULT_TIMEOUTS } from './engine-options';
import { nodeClock } from './node-clock';
import { joinSignalingRoom } from './signaling-seat';
import { filesUnder, writeTextFile } from './test-support/files-on-disk';
import { useLoopbackRig } from './test-support/loopback-rig';
import { transferPair } from './test-support/transfer-pair';

// docs/protocol.md, "Pair rooms": two remembered devices agree a secret in-band, wait for each
// other in the room it names, and send to each other without a code; nobody else gets through.
// Every test here opens sockets for several devices' rooms and transfers: more than the 30 a
// minute one address may open by default.
const rig = useLoopbackRig({ maxConnectionsPerIp: 1_000 });
const opened: PairRooms[] = [];
afterEach(() => {
  for (const rooms of opened.splice(0)) rooms.close();
});

let folders = 0;
const installation = (name: string): Promise<Installation> =>
  openInstallation(join(rig.scratch.path, 'installations', `${name}-${(folders += 1)}`), name);

const identityOf = (device: Installation) => ({
  pemFile: device.identity.pemFile,
  devices: device.setting,
});

const seatIn = (roomId: string, stop: AbortSignal) =>
  joinSignalingRoom({ serverUrl: rig.server.url }, roomId, DEFAULT_TIMEOUTS.roleWait, stop);

function watch(devices: PairedDevice[]): PairRooms {
  const rooms = createPairRooms({ joinRoom: seatIn, clock: nodeClock, devices });
  opened.push(rooms);
  return rooms;
}

/** Settles once `rooms` shows `fingerprint` online (or, `online` false, offline). */
function seen(rooms: PairRooms, fingerprint: string, online = true): Promise<void> {
  return new Promise((resolve) => {
    const look = (now: ReadonlySet<string>): void => {
      if (now.has(fingerprint) !== online) return;
      stop();
      resolve();
    };
    const stop = rooms.onChange(look);
    look(rooms.online());
  });
}

/** One file from `from` to `to` by a code, both with their identities; both final views. */
async function transferBetween(from: Installation, to: Installation) {
  const source = join(rig.scratch.path, 'sources', String((folders += 1)), 'hello.txt');
  await writeTextFile(source, 'hello');
  return transferPair(
    rig.server.url,
    { paths: [source], iceServers: [], identity: identityOf(from) },
    {
      destination: join(rig.scratch.path, 'received', String((folders += 1))),
      iceServers: [],
      identity: identityOf(to),
    },
  );
}

const pairSecretOf = (view: FinalState): string | undefined =>
  view.phase === 'done' ? view.peer?.pairSecret : undefined;

/** Two installations that remembered each other after a transfer, with the secret it agreed. */
async function pairedInstallations() {
  const ana = await installation('Ana');
  const bea = await installation('Bea');
  const { sender, receiver } = await transferBetween(ana, bea);
  const secret = pairSecretOf(sender) ?? '';
  await ana.book.remember(bea.identity.fingerprint, 'Bea', pairSecretOf(sender));
  await bea.book.remember(ana.identity.fingerprint, 'Ana', pairSecretOf(receiver));
  return { ana, bea, secret };
}

const paired = (device: Installation, name: string, pairSecret: string): PairedDevice => ({
  fingerprint: device.identity.fingerprint,
  name,
  pairSecret,
});

describe('the pair secret, agreed in-band', () => {
  it('is the same on both ends of a transfer, and differs on the next one', async () => {
    const ana = await installation('Ana');
    const bea = await installation('Bea');
    const first = await transferBetween(ana, bea);
    expect(first.sender.phase).toBe('done');
    const secret = pairSecretOf(first.sender);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(pairSecretOf(first.receiver)).toBe(secret);
    const second = await transferBetween(ana, bea);
    expect(pairSecretOf(second.receiver)).toBe(pairSecretOf(second.sender));
    expect(pairSecretOf(second.sender)).not.toBe(secret);
  });

  it('is not agreed with a side that offers no extensions', async () => {
    const ana = await installation('Ana');
    const source = join(rig.scratch.path, 'sources', String((folders += 1)), 'plain.txt');
    await writeTextFile(source, 'plain');
    const { sender, receiver } = await transferPair(
      rig.server.url,
      { paths: [source], iceServers: [], identity: identityOf(ana) },
      {
        destination: join(rig.scratch.path, 'received', String((folders += 1))),
        iceServers: [],
        extensions: false,
      },
    );
    expect(sender.phase).toBe('done');
    expect(pairSecretOf(sender)).toBeUndefined();
    expect(pairSecretOf(receiver)).toBeUndefined();
  });
});

describe('pair rooms on a real signaling server', () => {
  it('shows each device online while the other waits, offline once it leaves', async () => {
    const { ana, bea, secret } = await pairedInstallations();
    const atAna = watch([paired(bea, 'Bea', secret)]);
    const atBea = watch([paired(ana, 'Ana', secret)]);
    await within(10_000, 'Bea online at Ana', seen(atAna, bea.identity.fingerprint));
    await within(10_000, 'Ana online at Bea', seen(atBea, ana.identity.fingerprint));
    atBea.close();
    await within(10_000, 'Bea offline at Ana', seen(atAna, bea.identity.fingerprint, false));
  });

  it('leaves the room of a forgotten device', async () => {
    const { ana, bea, secret } = await pairedInstallations();
    const atAna = watch([paired(bea, 'Bea', secret)]);
    const atBea = watch([paired(ana, 'Ana', secret)]);
    await within(10_000, 'Ana online at Bea', seen(atBea, ana.identity.fingerprint));
    atAna.update([]);
    await within(10_000, 'Ana offline at Bea', seen(atBea, ana.identity.fingerprint, false));
  });

  it('passes on an invitation with the right proof, and drops a stranger’s', async () => {
    const { ana, bea, secret } = await pairedInstallations();
    const atAna = watch([paired(bea, 'Bea', secret)]);
    const invites: { device: PairedDevice; roomId: string }[] = [];
    atAna.onInvite((invite) => invites.push(invite));
    // A stranger who learned the room id, but not the secret, sits down beside Ana.
    const stop = new AbortController();
    const stranger = await seatIn(await pairRoomId(secret), stop.signal);
    await within(10_000, 'someone in the room', seen(atAna, bea.identity.fingerprint));
    const invited = '0b7d4b1e-1d2c-4c3a-9f00-123456789abc';
    stranger.signal({ type: 'ferry-invite', roomId: invited, proof: 'ab'.repeat(32) });
    stranger.signal({ type: 'ferry-invite', roomId: invited });
    stranger.close();
    await within(10_000, 'the stranger gone', seen(atAna, bea.identity.fingerprint, false));
    // Bea, who holds the secret, comes and invites.
    const atBea = watch([paired(ana, 'Ana', secret)]);
    await within(10_000, 'Ana online at Bea', seen(atBea, ana.identity.fingerprint));
    const reached = new Promise<void>((resolve) => atAna.onInvite(() => resolve()));
    await atBea.invite(ana.identity.fingerprint, invited);
    await within(10_000, 'the invitation', reached);
    expect(invites).toEqual([{ device: paired(bea, 'Bea', secret), roomId: invited }]);
  });

  it('turns a third device away with room-full, and the two stay online', async () => {
    const { ana, bea, secret } = await pairedInstallations();
    const atAna = watch([paired(bea, 'Bea', secret)]);
    const atBea = watch([paired(ana, 'Ana', secret)]);
    await within(10_000, 'Bea online at Ana', seen(atAna, bea.identity.fingerprint));
    await within(10_000, 'Ana online at Bea', seen(atBea, ana.identity.fingerprint));
    const changes: number[] = [];
    atAna.onChange((now) => changes.push(now.size));
    await expect(
      seatIn(await pairRoomId(secret), new AbortController().signal),
    ).rejects.toMatchObject({ code: 'ERR_ROOM_FULL' });
    // Whatever the third one did, both still see each other, and nothing changed meanwhile.
    const invited = new Promise<void>((resolve) => atBea.onInvite(() => resolve()));
    await atAna.invite(bea.identity.fingerprint, '1b7d4b1e-1d2c-4c3a-9f00-123456789abc');
    await within(10_000, 'an invitation through the room', invited);
    expect(changes).toEqual([]);
    expect(atAna.online()).toEqual(new Set([bea.identity.fingerprint]));
  });
});

describe('a pair room a stranger fills', () => {
  it('counts as offline, and is joined again after PAIR_ROOM_RETRY_MS', async () => {
    const { ana, bea, secret } = await pairedInstallations();
    const stop = new AbortController();
    const stranger = await seatIn(await pairRoomId(secret), stop.signal);
    // Bea sits down beside the stranger, and takes it for Ana: the room is full.
    const atBea = watch([paired(ana, 'Ana', secret)]);
    await within(10_000, 'the stranger beside Bea', seen(atBea, ana.identity.fingerprint));
    const manual = new ManualClock();
    let retrying: () => void = () => undefined;
    const retryScheduled = new Promise<void>((resolve) => (retrying = resolve));
    const clock: Clock = {
      now: () => manual.now(),
      setTimeout: (callback, ms) => {
        retrying();
        return manual.setTimeout(callback, ms);
      },
    };
    const atAna = createPairRooms({
      joinRoom: seatIn,
      clock,
      devices: [paired(bea, 'Bea', secret)],
    });
    opened.push(atAna);
    // Turned away (room-full): a retry is due, and Bea is not shown online.
    await within(10_000, 'a retry scheduled', retryScheduled);
    expect(atAna.online().size).toBe(0);
    stranger.close();
    manual.advance(PAIR_ROOM_RETRY_MS);
    await within(10_000, 'Bea online at Ana', seen(atAna, bea.identity.fingerprint));
  });
});

describe('a send without a code', () => {
  /** Bea waits in her pair rooms and receives every invitation from a paired device. */
  function listening(bea: Installation, secret: string, ana: Installation) {
    const rooms = watch([paired(ana, 'Ana', secret)]);
    const destination = join(rig.scratch.path, 'received', String((folders += 1)));
    const received = new Promise<FinalState>((resolve) =>
      rooms.onInvite(({ device, roomId }) => {
        const receiver = receiveFiles({
          serverUrl: rig.server.url,
          remedySurface: 'cli',
          code: '',
          roomId,
          expectPeer: { fingerprint: device.fingerprint, name: device.name },
          destination,
          iceServers: [],
          identity: identityOf(bea),
        });
        void receiver.finished.then(resolve);
      }),
    );
    return { rooms, destination, received };
  }

  async function sendReaching(ana: Installation, reach: Reach, timeouts = {}) {
    const source = join(rig.scratch.path, 'sources', String((folders += 1)), 'note.txt');
    await writeTextFile(source, 'no code needed');
    const views: TransferView[] = [];
    const sender = sendFiles({
      serverUrl: rig.server.url,
      remedySurface: 'cli',
      paths: [source],
      iceServers: [],
      identity: identityOf(ana),
      reach,
      timeouts,
    });
    sender.on('state', (view) => views.push(view));
    return { views, final: await sender.finished };
  }

  it('reaches a paired device through its pair room, and it checks who sent', async () => {
    const { ana, bea, secret } = await pairedInstallations();
    const atBea = listening(bea, secret, ana);
    const atAna = watch([paired(bea, 'Bea', secret)]);
    await within(10_000, 'Bea online', seen(atAna, bea.identity.fingerprint));
    const { views, final } = await sendReaching(ana, {
      name: 'Bea',
      expectPeer: { fingerprint: bea.identity.fingerprint, name: 'Bea' },
      deliver: (roomId) => atAna.invite(bea.identity.fingerprint, roomId),
    });
    expect(final.phase).toBe('done');
    const waiting = views.find((view) => view.phase === 'waiting-for-peer');
    expect(waiting).toMatchObject({ code: '', to: 'Bea' });
    const received = await atBea.received;
    expect(received.phase).toBe('done');
    if (received.phase === 'done') {
      expect(received.peer?.check).toMatchObject({ kind: 'device', name: 'Ana' });
    }
    expect(await readFile(join(atBea.destination, 'note.txt'), 'utf8')).toBe('no code needed');
  });

  it('refuses a stranger that was handed the room, before a byte of file data', async () => {
    const { ana, bea } = await pairedInstallations();
    const stranger = await installation('Mallory');
    const destination = join(rig.scratch.path, 'received', String((folders += 1)));
    let strangerDone: Promise<FinalState> | undefined;
    const { final } = await sendReaching(ana, {
      name: 'Bea',
      expectPeer: { fingerprint: bea.identity.fingerprint, name: 'Bea' },
      deliver: async (roomId) => {
        strangerDone = receiveFiles({
          serverUrl: rig.server.url,
          remedySurface: 'cli',
          code: '',
          roomId,
          destination,
          iceServers: [],
          identity: identityOf(stranger),
        }).finished;
      },
    });
    expect(final).toMatchObject({ phase: 'failed', code: 'ERR_UNEXPECTED_DEVICE' });
    expect((await strangerDone)?.phase).toBe('failed');
    expect(await filesUnder(destination).catch(() => [])).toEqual([]);
  });

  it('says the device is not online when nobody comes', async () => {
    const ana = await installation('Ana');
    const { final } = await sendReaching(
      ana,
      { name: 'Bea', deliver: () => Promise.resolve() },
      { peerJoin: 1_000 },
    );
    expect(final).toMatchObject({ phase: 'failed', code: 'ERR_NOT_ONLINE' });
    if (final.phase === 'failed') expect(final.message).toBe('“Bea” is not online');
  });

  it('an invitation to a room its sender already left fails as the sender gone, not as a dead code', async () => {
    const bea = await installation('Bea');
    const receiver = receiveFiles({
      serverUrl: rig.server.url,
      remedySurface: 'cli',
      code: '',
      roomId: '2b7d4b1e-1d2c-4c3a-9f00-123456789abc',
      destination: join(rig.scratch.path, 'received', String((folders += 1))),
      iceServers: [],
      identity: identityOf(bea),
    });
    expect(await receiver.finished).toMatchObject({ phase: 'failed', code: 'ERR_PEER_CLOSED' });
  });

  it('says so at once when the room cannot be delivered', async () => {
    const ana = await installation('Ana');
    const rooms = watch([]);
    const { final } = await sendReaching(ana, {
      name: 'Bea',
      deliver: (roomId) => rooms.invite('sha-256 00', roomId),
    });
    expect(final).toMatchObject({ phase: 'failed', code: 'ERR_NOT_ONLINE' });
  });
});
