import { afterEach, describe, expect, it } from 'vitest';
import type { RememberedDevice } from '../devices/remembered-devices';
import type { HistoryEntry } from '../history/transfer-history';
import type { DevicesView } from '../ipc/contract';
import type { IpcResult } from '../ipc/result';
import type { ExpectedPeer } from '../session/expected-peer';

import { INLINE_TEXT_MAX_BYTES } from '../protocol/limits';
import type { PeerCheck, TransferView } from '../transfer/transfer-view';
import { appError } from './app-errors';
import { ScriptedSessions, type ScriptedTransfer } from './testing/scripted-sessions';

/**
 * An app under test, asked the way its screen asks it: the desktop controller over its IPC
 * handlers, the browser backend through its page calls, or the core itself.
 */
export interface AppUnderTest {
  /** Starts a send (a text message) or a receive, as the person does. */
  start(kind: 'send' | 'receive'): Promise<IpcResult<null>>;
  cancel(): Promise<IpcResult<null>>;
  dismiss(): Promise<IpcResult<null>>;
  answerOffer(accept: boolean): Promise<IpcResult<null>>;
  answerWords(match: boolean): Promise<IpcResult<null>>;
  rememberPeer(name: string): Promise<IpcResult<DevicesView>>;
  renameDevice(fingerprint: string, name: string): Promise<IpcResult<DevicesView>>;
  forgetDevice(fingerprint: string): Promise<IpcResult<DevicesView>>;
  /** Starts a send only the remembered device `fingerprint` may receive. */
  sendTo(fingerprint: string): Promise<IpcResult<null>>;
  /** The device a session's start request pins its send to, as this app's request carries it. */
  pinOf(request: unknown): ExpectedPeer | undefined;

  setDeviceAutoAccept(fingerprint: string, autoAccept: boolean): Promise<IpcResult<DevicesView>>;
  /**
   * The remembered devices as this app stores them, secrets included; absent where the test
   * cannot read its store (a page's IndexedDB outside a browser).
   */
  storedDevices?(): Promise<readonly RememberedDevice[]>;
  /** The person's "Keep a history" setting. */
  keepHistory(keep: boolean): Promise<void>;
  /** Everything the screen was told, in order. */
  readonly views: TransferView[];
  readonly histories: HistoryEntry[][];
  readonly devices: DevicesView[];
  readonly warnings: string[];
  close(): Promise<void>;
}

/** Builds the app under test over `sessions`, a session starter the suite drives by hand. */
export type AppFactory = (sessions: ScriptedSessions) => Promise<AppUnderTest>;

/** A certificate fingerprint as the screens are shown one (src-shared/ipc/value-schemas.ts). */
const fingerprintOf = (byte: string): string => `sha-256 ${Array(32).fill(byte).join(':')}`;
const FINGERPRINT = fingerprintOf('AB');

type Failed = Extract<TransferView, { phase: 'failed' }>;

const waitingForPeer: Extract<TransferView, { phase: 'waiting-for-peer' }> = {
  phase: 'waiting-for-peer',
  direction: 'send',
  code: 'acid-otter-plank',
  files: [{ name: 'message.txt', size: 5 }],
  totalBytes: 5,
};

const waitingForTwo: TransferView = {
  ...waitingForPeer,
  files: [
    { name: 'a.txt', size: 2 },
    { name: 'b.txt', size: 5 },
  ],
  totalBytes: 7,
};

const connecting: TransferView = {
  phase: 'connecting',
  direction: 'receive',
  code: 'acid-otter-plank',
  stage: 'finding',
};

const transferring: TransferView = {
  phase: 'transferring',
  direction: 'send',
  progress: {
    fileIndex: 1,
    fileCount: 1,
    fileName: 'message.txt',
    fileBytes: 2,
    fileSize: 5,
    bytesDone: 2,
    totalBytes: 5,
    bytesPerSecond: 1000,
  },
};

const cancelled: Failed = {
  phase: 'failed',
  direction: 'send',
  code: 'ERR_CANCELLED',
  message: 'You cancelled the transfer.',
};

const declined: Failed = {
  phase: 'failed',
  direction: 'receive',
  code: 'ERR_DECLINED',
  message: 'You declined the transfer.',
};

function offer(wordsAsked: boolean): TransferView {
  return {
    phase: 'awaiting-acceptance',
    direction: 'receive',
    offer: {
      firstFileName: 'a.txt',
      fileCount: 1,
      totalBytes: 5,
      peerCheck: { kind: 'words', words: 'acid otter plank' },
    },
    destination: 'Downloads',
    ...(wordsAsked ? { wordsAsked: true as const } : {}),
  };
}

/** A text message offered by a Ferry sender, of `bytes` bytes. */
function textOffer(bytes: number, wordsAsked = false): TransferView {
  return {
    phase: 'awaiting-acceptance',
    direction: 'receive',
    offer: {
      firstFileName: 'message.txt',
      fileCount: 1,
      totalBytes: bytes,
      peerCheck: { kind: 'words', words: 'acid otter plank' },
      textMessage: true,
    },
    destination: 'Downloads',
    ...(wordsAsked ? { wordsAsked: true as const } : {}),
  };
}

function done(check?: PeerCheck): TransferView {
  return {
    phase: 'done',
    direction: 'receive',
    files: [{ name: 'a.txt', size: 5 }],
    totalBytes: 5,
    ...(check === undefined ? {} : { peer: { fingerprint: FINGERPRINT, check } }),
  };
}

const WORDS: PeerCheck = { kind: 'words', words: 'acid otter plank' };
const OK = { ok: true, value: null };
const lastOf = <T>(list: readonly T[]): T | undefined => list.at(-1);

/**
 * The rules of the one transfer on screen (docs/architecture.md, "The application core"), as one
 * suite every adapter runs: what the person sees and what the transfer is asked must be the same
 * on the desktop and in the browser.
 */
export function appRulesContract(label: string, factory: AppFactory): void {
  describe(`the application rules (${label})`, () => {
    const opened: AppUnderTest[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((app) => app.close()));
    });

    async function open(): Promise<{ app: AppUnderTest; sessions: ScriptedSessions }> {
      const sessions = new ScriptedSessions();
      const app = await factory(sessions);
      opened.push(app);
      return { app, sessions };
    }

    async function running(
      view: TransferView,
    ): Promise<{ app: AppUnderTest; sessions: ScriptedSessions; first: ScriptedTransfer }> {
      const { app, sessions } = await open();
      expect(await app.start('send')).toEqual(OK);
      sessions.last.show(view);
      return { app, sessions, first: sessions.last };
    }

    describe('one transfer at a time', () => {
      it('refuses a second send or receive with ERR_BUSY, and the first goes on undisturbed', async () => {
        const { app, sessions, first } = await running(waitingForPeer);
        const busy = { ok: false, error: appError('ERR_BUSY') };
        expect(await app.start('send')).toEqual(busy);
        expect(await app.start('receive')).toEqual(busy);
        expect(sessions.started).toHaveLength(1);
        expect(first.asked).toEqual([]);
        expect(lastOf(app.views)).toEqual(waitingForPeer);
      });

      it('answers a start the session refuses with its refusal, and keeps the finished one on screen', async () => {
        const { app, sessions, first } = await running(done());
        const nothing = appError('ERR_NOTHING_TO_SEND');
        sessions.refuseNext = nothing;
        expect(await app.start('send')).toEqual({ ok: false, error: nothing });
        expect(first.asked).toEqual([]);
        expect(lastOf(app.views)).toEqual(done());
        expect(await app.dismiss()).toEqual(OK);
        expect(first.asked).toEqual(['leave']);
      });

      it('starts another the moment the outcome shows, and leaves the finished one', async () => {
        const { app, sessions, first } = await running(done());
        expect(await app.start('receive')).toEqual(OK);
        expect(sessions.started).toHaveLength(2);
        expect(first.asked).toEqual(['leave']);
      });
    });

    describe('cancel', () => {
      it('before a receiver came goes back to the start: no failure, nobody else concerned', async () => {
        const { app, first } = await running(waitingForPeer);
        expect(await app.cancel()).toEqual(OK);
        expect(lastOf(app.views)).toEqual({ phase: 'idle' });
        expect(first.asked).toEqual(['leave']);
        // What the left transfer says while it closes is not shown.
        first.show(cancelled);
        expect(lastOf(app.views)).toEqual({ phase: 'idle' });
        expect(await app.start('send')).toEqual(OK);
      });

      it('during a transfer tells the other side, and the transfer shows its outcome', async () => {
        const { app, first } = await running(transferring);
        expect(await app.cancel()).toEqual(OK);
        expect(first.asked).toEqual(['cancel']);
        expect(lastOf(app.views)).toEqual(transferring);
        first.show(cancelled);
        expect(lastOf(app.views)).toEqual(cancelled);
      });

      it('after the outcome changes nothing', async () => {
        const { app, first } = await running(done());
        expect(await app.cancel()).toEqual(OK);
        expect(first.asked).toEqual([]);
        expect(lastOf(app.views)).toEqual(done());
      });
    });

    describe('connecting', () => {
      it('shows each stage the session reaches, in order, and a retry with its count', async () => {
        const { app, first } = await running(waitingForPeer);
        const step = (stage: 'direct' | 'securing', retry?: number): TransferView => ({
          phase: 'connecting',
          direction: 'send',
          code: 'acid-otter-plank',
          stage,
          ...(retry === undefined ? {} : { retry }),
        });
        for (const view of [step('direct'), step('securing'), step('direct', 1)]) {
          first.show(view);
          expect(lastOf(app.views)).toEqual(view);
        }
      });
    });

    describe('warnings', () => {
      it('reach the screen from the transfer on it, and not once it was left', async () => {
        const { app, first } = await running(waitingForPeer);
        first.warn('album/everything is a link and is not sent.');
        expect(app.warnings).toEqual(['album/everything is a link and is not sent.']);
        await app.cancel();
        first.warn('the channel closed.');
        expect(app.warnings).toHaveLength(1);
      });
    });

    describe('dismiss', () => {
      it('is refused with ERR_BUSY while the transfer runs: cancel is the way', async () => {
        const { app, first } = await running(transferring);
        expect(await app.dismiss()).toEqual({ ok: false, error: appError('ERR_BUSY') });
        expect(first.asked).toEqual([]);
        expect(lastOf(app.views)).toEqual(transferring);
      });

      it('leaves a finished or failed transfer for the start', async () => {
        const { app, first } = await running(cancelled);
        expect(await app.dismiss()).toEqual(OK);
        expect(lastOf(app.views)).toEqual({ phase: 'idle' });
        expect(first.asked).toEqual(['leave']);
        first.show(done());
        expect(lastOf(app.views)).toEqual({ phase: 'idle' });
      });
    });

    describe('the history', () => {
      it('records a finished transfer once, however often its outcome shows', async () => {
        const { app, first } = await running(done());
        first.show(done());
        // A history change comes after every earlier one: here, after the recording.
        await app.keepHistory(false);
        expect(app.histories.map((entries) => entries.length)).toEqual([1, 0]);
        expect(app.histories[0]?.[0]).toMatchObject({ files: [{ name: 'a.txt' }] });
      });

      it('records no failure before the other device came: no batch ended', async () => {
        const { app, first } = await running(connecting);
        first.show({ ...cancelled, code: 'ERR_CODE_NOT_FOUND', message: 'code not found' });
        await app.keepHistory(false);
        expect(app.histories).toEqual([[]]);
      });

      it('records a declined batch with the check shown, and that nothing arrived', async () => {
        const { app, first } = await running(offer(false));
        first.show({ ...declined, arrived: [] });
        first.show(declined);
        await app.keepHistory(false);
        expect(app.histories.map((entries) => entries.length)).toEqual([1, 0]);
        const [entry] = app.histories[0] ?? [];
        expect(entry).toMatchObject({
          direction: 'receive',
          outcome: 'declined',
          offered: { fileCount: 1, totalBytes: 5 },
          fileCount: 0,
          files: [],
          peer: { check: 'words' },
        });
        expect(entry).not.toHaveProperty('arrivalUnknown');
      });

      it('records a cancelled batch with the files that arrived whole, and the program on the other end', async () => {
        const { app, first } = await running(waitingForTwo);
        first.show(transferring);
        first.show({
          ...cancelled,
          arrived: [{ name: 'a.txt', size: 2 }],
          peer: { fingerprint: FINGERPRINT, check: WORDS, program: 'browser' },
        });
        await app.keepHistory(false);
        expect(app.histories[0]?.[0]).toMatchObject({
          direction: 'send',
          outcome: 'cancelled',
          offered: { fileCount: 2, totalBytes: 7 },
          fileCount: 1,
          totalBytes: 2,
          files: [{ name: 'a.txt', size: 2 }],
          peer: { check: 'words', program: 'browser' },
        });
      });

      it('records a failed batch, and says when this side cannot tell what arrived', async () => {
        const { app, first } = await running(waitingForTwo);
        first.show(transferring);
        first.show({ ...cancelled, code: 'ERR_PEER_CLOSED', message: 'closed' });
        await app.keepHistory(false);
        expect(app.histories[0]?.[0]).toMatchObject({
          outcome: 'failed',
          fileCount: 0,
          arrivalUnknown: true,
          peer: { check: 'unverified' },
        });
      });

      it('records nothing while the person keeps none', async () => {
        const { app, sessions } = await open();
        await app.keepHistory(false);
        expect(await app.start('receive')).toEqual(OK);
        sessions.last.show(done());
        await app.keepHistory(false);
        expect(app.histories).toEqual([[], []]);
      });
    });

    describe('remembering a device', () => {
      const notVerified = { ok: false, error: appError('ERR_NOT_VERIFIED') };

      it('is refused before any transfer, and after one that did not verify the other end', async () => {
        const { app } = await open();
        expect(await app.rememberPeer('Laptop')).toEqual(notVerified);
        const { app: after } = await running(done({ kind: 'unverified' }));
        expect(await after.rememberPeer('Laptop')).toEqual(notVerified);
        const { app: during } = await running(transferring);
        expect(await during.rememberPeer('Laptop')).toEqual(notVerified);
        expect([...app.devices, ...after.devices, ...during.devices]).toEqual([]);
      });

      it('keeps the device a finished transfer verified, and tells the screen', async () => {
        const { app } = await running(done(WORDS));
        const remembered = await app.rememberPeer('Laptop');
        expect(remembered).toMatchObject({
          ok: true,
          value: { remembered: [{ fingerprint: FINGERPRINT, name: 'Laptop' }] },
        });
        expect(lastOf(app.devices)).toEqual(remembered.ok ? remembered.value : undefined);
      });

      it('keeps the pair secret of the finished transfer with the device, never shows it, and forgets it with the device', async () => {
        const pairSecret = 'c0'.repeat(32);
        const finished = done(WORDS);
        const { app } = await running(
          finished.phase === 'done' && finished.peer !== undefined
            ? { ...finished, peer: { ...finished.peer, pairSecret } }
            : finished,
        );
        const remembered = await app.rememberPeer('Laptop');
        expect(remembered.ok && remembered.value.remembered[0]).toEqual(
          expect.not.objectContaining({ pairSecret: expect.anything() }),
        );
        expect(JSON.stringify(app.devices)).not.toContain(pairSecret);
        if (app.storedDevices === undefined) return;
        expect(await app.storedDevices()).toMatchObject([{ fingerprint: FINGERPRINT, pairSecret }]);
        await app.forgetDevice(FINGERPRINT);
        expect(JSON.stringify(await app.storedDevices())).not.toContain(pairSecret);
      });

      it('renames and forgets; a change the list cannot take is refused with ERR_DEVICE_LIST', async () => {
        const { app } = await running(done(WORDS));
        await app.rememberPeer('Laptop');
        expect(await app.renameDevice(FINGERPRINT, 'Kitchen')).toMatchObject({
          ok: true,
          value: { remembered: [{ name: 'Kitchen' }] },
        });
        expect(await app.renameDevice(fingerprintOf('01'), 'Phone')).toMatchObject({
          ok: false,
          error: { code: 'ERR_DEVICE_LIST' },
        });
        expect(await app.forgetDevice(FINGERPRINT)).toMatchObject({
          ok: true,
          value: { remembered: [] },
        });
      });

      it('sets a remembered device to save without asking, and back', async () => {
        const { app } = await running(done(WORDS));
        await app.rememberPeer('Laptop');
        const on = await app.setDeviceAutoAccept(FINGERPRINT, true);
        expect(on).toMatchObject({ ok: true, value: { remembered: [{ autoAccept: true }] } });
        expect(lastOf(app.devices)).toEqual(on.ok ? on.value : undefined);
        expect(await app.setDeviceAutoAccept(FINGERPRINT, false)).toMatchObject({
          ok: true,
          value: { remembered: [{ autoAccept: false }] },
        });
        expect(await app.setDeviceAutoAccept(fingerprintOf('01'), true)).toMatchObject({
          ok: false,
          error: { code: 'ERR_DEVICE_LIST' },
        });
      });
    });

    describe('a send pinned to a remembered device', () => {
      it('goes to that device under the name it has now; one no longer remembered is refused, and nothing starts', async () => {
        const { app, sessions } = await running(done(WORDS));
        await app.rememberPeer('Laptop');
        await app.renameDevice(FINGERPRINT, 'Kitchen');
        expect(await app.sendTo(FINGERPRINT)).toEqual(OK);
        expect(sessions.started).toHaveLength(2);
        expect(app.pinOf(sessions.last.request)).toEqual({
          fingerprint: FINGERPRINT,
          name: 'Kitchen',
        });
        sessions.last.show(done());
        await app.forgetDevice(FINGERPRINT);
        expect(await app.sendTo(FINGERPRINT)).toEqual({
          ok: false,
          error: appError('ERR_NOT_REMEMBERED'),
        });
        expect(sessions.started).toHaveLength(2);
        // An unpinned send carries no pin.
        expect(await app.start('send')).toEqual(OK);
        expect(app.pinOf(sessions.last.request)).toBeUndefined();
      });
    });

    describe('answering an offer', () => {
      it('is refused with ERR_NO_OFFER when no offer is on screen', async () => {
        const { app, first } = await running(transferring);
        expect(await app.answerOffer(true)).toEqual({ ok: false, error: appError('ERR_NO_OFFER') });
        expect(first.asked).toEqual([]);
      });

      it('takes Accept only once the words were compared; a decline needs no comparison', async () => {
        const { app, first } = await running(offer(true));
        first.asking = true;
        expect(await app.answerOffer(true)).toEqual({
          ok: false,
          error: appError('ERR_WORDS_NOT_COMPARED'),
        });
        expect(await app.answerOffer(false)).toEqual(OK);
        expect(first.asked).toEqual(['words differ']);
      });

      it('passes the answer on once the words are settled', async () => {
        const { app, first } = await running(offer(false));
        first.asking = true;
        expect(await app.answerOffer(true)).toEqual(OK);
        expect(first.asked).toEqual(['accept']);
      });

      it('accepts a text of at most INLINE_TEXT_MAX_BYTES without asking, and shows no prompt', async () => {
        const { app, sessions } = await open();
        expect(await app.start('receive')).toEqual(OK);
        const first = sessions.last;
        first.asking = true;
        first.show(textOffer(INLINE_TEXT_MAX_BYTES));
        await app.keepHistory(true);
        expect(first.asked).toEqual(['accept']);
        expect(app.views.map((view) => view.phase)).not.toContain('awaiting-acceptance');
      });

      it('shows the prompt of a short text when the transfer did not take the answer', async () => {
        const { app, first } = await running(textOffer(5));
        await app.keepHistory(true);
        expect(first.asked).toEqual(['accept']);
        expect(lastOf(app.views)).toEqual(textOffer(5));
      });

      it('asks as for any offer about a longer text, or one whose words are to be compared', async () => {
        for (const view of [textOffer(INLINE_TEXT_MAX_BYTES + 1), textOffer(5, true)]) {
          const { app, first } = await running(view);
          expect(first.asked).toEqual([]);
          expect(lastOf(app.views)).toEqual(view);
        }
      });

      it('refuses an answer about the words when nothing asks', async () => {
        const { app } = await running(transferring);
        expect(await app.answerWords(true)).toEqual({
          ok: false,
          error: appError('ERR_NO_WORDS_QUESTION'),
        });
      });
    });
  });
}
