import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../signaling-server';
import { filesUnder, sha256File, writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { startLoopbackServer } from '../engine/test-support/loopback-server';
import { openNativePairRooms, sendFiles } from '../engine';
import { EXIT } from './exit-codes';
import { startCli, type CliProcess } from './test-support/cli-process';

// docs/architecture.md, "Nearby devices on the command line": Ana and Bea, each at a command line
// with her own FERRY_HOME, reach each other with no code once they remember each other.
const RUN_LINE = /^On the other device run: ferry receive ([a-z-]+) --key=([A-Za-z0-9_-]{22})$/;
const WAITING = /^Waiting for devices as /;
/** The bound for a send to a device that is not online. */
const NOT_ONLINE_WITHIN_MS = 30_000;

const rig = useLoopbackRig();
let presence: RunningServer | undefined;
let ana = { FERRY_HOME: '' };
let bea = { FERRY_HOME: '' };
let file = '';
let other = '';

/** Listeners a test started: one a failed test left running would hold its pair room. */
const listeners: CliProcess[] = [];
/** Pair rooms a test opened by hand, left for good after it whatever happened. */
const openedRooms: { close(): void }[] = [];

function listen(env: { FERRY_HOME: string }, server: string, out: string, ...flags: string[]) {
  const listener = startCli(
    ['receive', '--listen', '--server', server, '--out', out, '--no-report', ...flags],
    env,
  );
  listeners.push(listener);
  return listener;
}

function sendTo(env: { FERRY_HOME: string }, server: string, name: string, ...paths: string[]) {
  return startCli(['send', '--server', server, '--to', name, ...paths], env);
}

/** Stops a listener as a person does, with Ctrl-C, and reads how it ended. */
async function stop(listener: CliProcess) {
  listener.interrupt();
  return listener.exited;
}

beforeAll(async () => {
  presence = await startLoopbackServer({ presence: true });
  ana = { FERRY_HOME: await mkdtemp(join(rig.scratch.path, 'home-ana-')) };
  bea = { FERRY_HOME: await mkdtemp(join(rig.scratch.path, 'home-bea-')) };
  file = join(rig.scratch.path, 'nearby', 'note.txt');
  await writeTextFile(file, 'no code needed\n');
  other = join(rig.scratch.path, 'nearby', 'other.txt');
  await writeTextFile(other, 'and the listener goes on\n');
  // A link-verified transfer with --remember on both sides: the pair secret is agreed in it.
  const sender = startCli(
    ['send', '--server', rig.server.url, '--remember', 'Bea phone', file],
    ana,
  );
  const [, code, key] = RUN_LINE.exec(await sender.line(RUN_LINE)) ?? [];
  const receiver = startCli(
    [
      'receive',
      '--server',
      rig.server.url,
      '--out',
      join(rig.scratch.path, 'first'),
      '--yes',
      '--no-report',
      '--remember',
      'Ana laptop',
      `${rig.server.url}/#receive=${code}&key=${key}`,
    ],
    bea,
  );
  const [sent, received] = await Promise.all([sender.exited, receiver.exited]);
  expect(sent.code, sent.stderr).toBe(EXIT.ok);
  expect(received.code, received.stderr).toBe(EXIT.ok);
});
afterEach(async () => {
  for (const rooms of openedRooms.splice(0)) rooms.close();
  for (const listener of listeners.splice(0)) {
    listener.kill();
    await listener.exited;
  }
});
afterAll(async () => {
  await presence?.close();
});

describe('remembered devices reach each other without a code', () => {
  it('receive --listen on one and send --to NAME on the other move the file, and the listener goes on', async () => {
    const inbox = join(rig.scratch.path, 'inbox');
    const listener = listen(bea, rig.server.url, inbox, '--yes');
    await listener.line(WAITING);

    const first = await sendTo(ana, rig.server.url, 'bea PHONE', file).exited;
    expect(first.code, first.stderr).toBe(EXIT.ok);
    expect(first.stdout).not.toMatch(/^Code: /m);
    expect(first.stdout).toContain('Waiting for “Bea phone” to answer...');
    expect(first.stdout).toContain(
      'Verify: Remembered device “Bea phone” — verified automatically',
    );
    await listener.line(/^Waiting for devices again\.$/);
    expect(await sha256File(join(inbox, 'note.txt'))).toBe(await sha256File(file));

    // Still listening: a second send arrives too.
    const second = await sendTo(ana, rig.server.url, 'Bea phone', other).exited;
    expect(second.code, second.stderr).toBe(EXIT.ok);
    expect(await sha256File(join(inbox, 'other.txt'))).toBe(await sha256File(other));
    const ended = await stop(listener);
    expect(ended.code, ended.stderr).toBe(EXIT.ok);
    expect(ended.stdout).toContain('Invitation from “Ana laptop”.');
    expect(ended.stdout).toContain('Online: “Ana laptop”');
    expect(ended.stdout).toContain(
      'Verify: Remembered device “Ana laptop” — verified automatically',
    );
    expect((await filesUnder(inbox)).sort()).toEqual(['note.txt', 'other.txt']);
  });

  it('a third installation that learns the pair secret is refused before any file byte', async () => {
    const inbox = join(rig.scratch.path, 'stranger-inbox');
    const listener = listen(bea, rig.server.url, inbox, '--yes');
    await listener.line(WAITING);
    const stored = JSON.parse(await readFile(join(ana.FERRY_HOME, 'devices.json'), 'utf8')) as {
      fingerprint: string;
      name: string;
      pairSecret?: string;
    }[];
    const [beaEntry] = stored;
    if (beaEntry?.pairSecret === undefined) throw new Error('Ana kept no pair secret for Bea');
    // The stranger holds the secret (so its room id and a valid invitation), not Ana's certificate.
    const rooms = openNativePairRooms({ serverUrl: rig.server.url }, [
      { fingerprint: beaEntry.fingerprint, name: beaEntry.name, pairSecret: beaEntry.pairSecret },
    ]);
    openedRooms.push(rooms);
    // As a sender does, it invites once it sees Bea waiting in the room.
    await new Promise<void>((resolve) => {
      if (rooms.online().has(beaEntry.fingerprint)) resolve();
      rooms.onChange((online) => {
        if (online.has(beaEntry.fingerprint)) resolve();
      });
    });
    const stranger = sendFiles({
      serverUrl: rig.server.url,
      paths: [file],
      remedySurface: 'cli',
      reach: { name: 'Bea phone', deliver: (roomId) => rooms.invite(beaEntry.fingerprint, roomId) },
    });
    const phases: string[] = [];
    for await (const state of stranger) phases.push(state.phase);
    const outcome = await stranger.finished.finally(() => rooms.close());
    expect(outcome.phase).toBe('failed');
    // Refused by the pin before the offer was answered: not one file byte left the stranger.
    expect(phases).not.toContain('transferring');
    await listener.line(/^Waiting for devices again\.$/);
    const ended = await stop(listener);
    expect(ended.code).toBe(EXIT.ok);
    expect(ended.stderr).toContain('(this is not “Ana laptop”)');
    expect(await filesUnder(inbox)).toEqual([]);
  });

  it('receive --server with no code waits for one transfer, then exits with its status', async () => {
    const inbox = join(rig.scratch.path, 'once-inbox');
    const receiver = startCli(
      ['receive', '--server', rig.server.url, '--out', inbox, '--yes', '--no-report'],
      bea,
    );
    await receiver.line(WAITING);
    const sent = await sendTo(ana, rig.server.url, 'Bea phone', other).exited;
    expect(sent.code, sent.stderr).toBe(EXIT.ok);
    const received = await receiver.exited;
    expect(received.code, received.stderr).toBe(EXIT.ok);
    expect(received.stdout).not.toContain('Waiting for devices again.');
    expect(await sha256File(join(inbox, 'other.txt'))).toBe(await sha256File(other));
  });

  it('send --to a device that is not online exits non-zero within 30 s, saying so', async () => {
    const started = Date.now();
    const sent = await sendTo(ana, rig.server.url, 'Bea phone', file).exited;
    expect(Date.now() - started).toBeLessThan(NOT_ONLINE_WITHIN_MS);
    expect(sent.code).toBe(EXIT.notOnline);
    expect(sent.stderr).toContain('“Bea phone” is not online');
  });

  it('devices shows who is online; after devices forget the send is not online / not known', async () => {
    const listener = listen(bea, rig.server.url, join(rig.scratch.path, 'unused'));
    await listener.line(WAITING);
    const listed = await startCli(['devices', '--server', rig.server.url], ana).exited;
    expect(listed.code, listed.stderr).toBe(EXIT.ok);
    expect(listed.stdout).toMatch(/^ {2}Bea phone — remembered .+ — online$/m);

    const forgotten = await startCli(['devices', 'forget', 'Bea phone'], ana).exited;
    expect(forgotten.code).toBe(EXIT.ok);
    const stored = JSON.parse(await readFile(join(ana.FERRY_HOME, 'devices.json'), 'utf8'));
    expect(stored).toEqual([]);
    const sent = await sendTo(ana, rig.server.url, 'Bea phone', file).exited;
    expect(sent.code).toBe(EXIT.notOnline);
    expect(sent.stderr).toContain('“Bea phone” is not online / not known');
    expect((await stop(listener)).code).toBe(EXIT.ok);
  });
});

describe('the roster of a server that keeps one', () => {
  it('a listening CLI is in the room, and receives a send chosen by its roster name', async () => {
    if (presence === undefined) throw new Error('the presence server did not start');
    const cem = { FERRY_HOME: await mkdtemp(join(rig.scratch.path, 'home-cem-')) };
    const inbox = join(rig.scratch.path, 'roster-inbox');
    const listener = listen(cem, presence.url, inbox, '--yes', '--name', 'Cem desk');
    await listener.line(WAITING);

    const listed = await startCli(
      ['devices', '--server', presence.url, '--name', 'Ana laptop'],
      ana,
    ).exited;
    expect(listed.stdout).toMatch(/^In this room:\n {2}Cem desk \(command line, #[A-Z2-7]{6}\)$/m);

    const sent = await startCli(
      ['send', '--server', presence.url, '--name', 'Ana laptop', '--to', 'cem desk', file],
      ana,
    ).exited;
    expect(sent.code, sent.stderr).toBe(EXIT.ok);
    expect(sent.stdout).not.toMatch(/^Code: /m);
    // Not remembered: checked by the words, shown on both sides.
    const words = /^Verify: ([a-z]+(?: [a-z]+){2}) \(check/m.exec(sent.stdout)?.[1];
    expect(words).toBeDefined();
    const ended = await stop(listener);
    expect(ended.stdout).toContain(`Verify: ${words ?? ''} (check`);
    expect(ended.stdout).toMatch(/^Invitation from Ana laptop \(command line, #[A-Z2-7]{6}\)\.$/m);
    expect(await sha256File(join(inbox, 'note.txt'))).toBe(await sha256File(file));
  });
});
