import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { WORDS_UNAVAILABLE } from '../../src-shared/verify/confirm-words';
import { appError } from '../../src-shared/app/app-errors';
import { receiveFiles, type FinalState } from '../engine';
import { filesUnder, writeTextFile } from '../engine/test-support/files-on-disk';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { startSender } from '../engine/test-support/transfer-pair';
import { useDesktopOnLoopback, type DesktopOnLoopback } from './test-support/desktop-on-loopback';

const rig = useLoopbackRig();

const desktop = useDesktopOnLoopback(rig);

const accepted = { ok: true, value: null };
const WORDS = /^[a-z]+ [a-z]+ [a-z]+$/;

/** The desktop app with "Confirm the words before any file moves" turned on. */
async function confirming(name: string): Promise<DesktopOnLoopback> {
  const app = await desktop(name);
  expect(await app.call('updateSettings', { confirmWords: true })).toMatchObject({ ok: true });
  return app;
}

/**
 * The desktop app sends `name`; a command-line receiver (extensions as given) accepts at once.
 * Resolves with the code once the app shows it.
 */
async function sendFromApp(
  app: DesktopOnLoopback,
  name: string,
  receiver: { extensions?: boolean } = {},
) {
  const source = join(rig.scratch.path, name, 'sent', `${name}.txt`);
  await writeTextFile(source, `the contents of ${name}`);
  app.dialog.files = [source];
  expect(await app.call('pickFiles', {})).toMatchObject({ ok: true });
  const waiting = app.nextView((view) => view.phase === 'waiting-for-peer');
  expect(await app.call('startSend', { paths: [source] })).toEqual(accepted);
  const shown = await waiting;
  if (shown.phase !== 'waiting-for-peer') throw new Error('unreachable');
  const destination = join(rig.scratch.path, name, 'received');
  const words: string[] = [];
  const receiving = receiveFiles({
    serverUrl: rig.server.url,
    code: shown.code,
    destination,
    iceServers: [],
    remedySurface: 'cli',
    ...receiver,
    onOffer: async (offer) => {
      if (offer.peerCheck.kind === 'words') words.push(offer.peerCheck.words);
      return true;
    },
  });
  return { destination, receiving, words, file: `${name}.txt` };
}

const failedWith = (code: string) => (view: TransferView) =>
  view.phase === 'failed' && view.code === code;

// docs/protocol.md, "Verification words": the desktop app's counterpart of `--verify`.
describe('a desktop sender that confirms the words', () => {
  it('holds every file byte until the person says the words match', async () => {
    const app = await confirming('sender-match');
    const asked = app.nextView(
      (view) => view.phase === 'waiting-for-acceptance' && !!view.wordsAsked,
    );
    const { destination, receiving, words, file } = await sendFromApp(app, 'sender-match');
    const question = await asked;
    if (question.phase !== 'waiting-for-acceptance') throw new Error('unreachable');
    expect(question.peerCheck).toEqual({ kind: 'words', words: expect.stringMatching(WORDS) });

    const done = app.nextView((view) => view.phase === 'done');
    expect(await app.call('answerWords', { match: true })).toEqual(accepted);
    await done;
    expect(await receiving.finished).toMatchObject({ phase: 'done' });
    // Both people were shown the same words.
    expect(words).toEqual([question.peerCheck?.kind === 'words' && question.peerCheck.words]);
    expect(await readFile(join(destination, file), 'utf8')).toBe('the contents of sender-match');
  });

  it('stops with nothing delivered on "They don’t match", though the receiver accepted', async () => {
    const app = await confirming('sender-differ');
    const asked = app.nextView(
      (view) => view.phase === 'waiting-for-acceptance' && !!view.wordsAsked,
    );
    const { destination, receiving } = await sendFromApp(app, 'sender-differ');
    await asked;

    const stopped = app.nextView(failedWith('ERR_NOT_CONFIRMED'));
    expect(await app.call('answerWords', { match: false })).toEqual(accepted);
    await stopped;
    const received: FinalState = await receiving.finished;
    expect(received.phase).toBe('failed');
    expect(await filesUnder(destination)).toEqual([]);
  });

  it('refuses, without asking, a receiver that cannot show words', async () => {
    const app = await confirming('sender-spec-only');
    const stopped = app.nextView(failedWith('ERR_NOT_CONFIRMED'));
    const { destination, receiving } = await sendFromApp(app, 'sender-spec-only', {
      extensions: false,
    });
    await stopped;
    expect(app.transferViews.some((view) => 'wordsAsked' in view)).toBe(false);
    expect(app.warnings).toContainEqual({ message: WORDS_UNAVAILABLE });
    expect((await receiving.finished).phase).toBe('failed');
    expect(await filesUnder(destination)).toEqual([]);
  });
});

describe('a desktop receiver that confirms the words', () => {
  async function offerTo(app: DesktopOnLoopback, name: string, extensions = true) {
    const source = join(rig.scratch.path, name, `${name}.txt`);
    await writeTextFile(source, `the contents of ${name}`);
    const { sender, code } = await startSender(rig.server.url, {
      paths: [source],
      iceServers: [],
      extensions,
    });
    expect(await app.call('startReceive', { code })).toEqual(accepted);
    return { sender, file: `${name}.txt` };
  }

  it('takes Accept only once the person said the words match', async () => {
    const app = await confirming('receiver-match');
    const asked = app.nextView((view) => view.phase === 'awaiting-acceptance' && !!view.wordsAsked);
    const { sender, file } = await offerTo(app, 'receiver-match');
    await asked;

    expect(await app.call('answerOffer', { accept: true })).toEqual({
      ok: false,
      error: appError('ERR_WORDS_NOT_COMPARED'),
    });
    const compared = app.nextView(
      (view) => view.phase === 'awaiting-acceptance' && !view.wordsAsked,
    );
    expect(await app.call('answerWords', { match: true })).toEqual(accepted);
    await compared;
    const done = app.nextView((view) => view.phase === 'done');
    expect(await app.call('answerOffer', { accept: true })).toEqual(accepted);
    await done;
    expect(await sender.finished).toMatchObject({ phase: 'done' });
    expect(await readFile(join(app.downloads, file), 'utf8')).toBe(
      'the contents of receiver-match',
    );
  });

  it('declines a sender that cannot show words, without asking', async () => {
    const app = await confirming('receiver-spec-only');
    const declined = app.nextView(failedWith('ERR_DECLINED'));
    const { sender } = await offerTo(app, 'receiver-spec-only', false);
    await declined;
    expect(app.transferViews.some((view) => 'wordsAsked' in view)).toBe(false);
    expect(app.warnings).toContainEqual({ message: WORDS_UNAVAILABLE });
    expect((await sender.finished).phase).toBe('failed');
    expect(await filesUnder(app.downloads).catch(() => [])).toEqual([]);
  });
});
