import { act, cleanup, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { ERROR_CODES, ERROR_MESSAGES, type ErrorCode } from '../../src-shared/protocol/error-codes';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { QrCode } from '../components/qr-code';
import { MAX_LISTED_FILES } from '../../src-shared/app/app-limits';
import { CODE, OFFER, PHOTO, PROGRESS, WAITING_FOR_PEER } from '../testing/fixtures';
import { push, renderApp, useManualClock } from '../testing/render-app';
import {
  createScriptedBackend,
  LAN_URL,
  TEST_SETTINGS,
  type ScriptedBackendOptions,
} from '../testing/scripted-backend';

function showing(transfer: TransferView, options: ScriptedBackendOptions = {}) {
  return renderApp(
    createScriptedBackend({ ...options, snapshot: { ...options.snapshot, transfer } }),
  );
}

const isDisabled = (name: string): boolean =>
  (screen.getByRole('button', { name }) as HTMLButtonElement).disabled;

/** The drawing a QR code of `text` gets, to compare with the one on screen. */
function qrDrawingOf(text: string): string | null {
  const { container, unmount } = render(<QrCode text={text} label="reference" />);
  const drawing = container.querySelector('path')?.getAttribute('d') ?? null;
  unmount();
  return drawing;
}

describe('sending, before the other device connects', () => {
  it('says it is getting a code, and can be cancelled', async () => {
    const { user, backend } = await showing({
      phase: 'registering',
      direction: 'send',
      files: [{ name: 'photo.jpg', size: PHOTO.size }],
      totalBytes: PHOTO.size,
    });
    expect(screen.getByRole('heading', { name: 'Getting a code' })).toBeTruthy();
    expect(screen.getByText('Asking the server for a code to send 1 file (2.5 MB).')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(backend.callsOf('cancel')).toHaveLength(1);
  });

  it('shows the code in large words, what happens next, and Cancel', async () => {
    const { user, backend } = await showing(WAITING_FOR_PEER);
    const code = screen.getByTestId('transfer-code');
    expect(code.textContent).toBe(CODE);
    expect(Array.from(code.querySelectorAll('.code-word'), (word) => word.textContent)).toEqual([
      'acid',
      'otter',
      'plank',
    ]);
    expect(screen.getByText('Sending 2 files, 2.5 MB.')).toBeTruthy();
    expect(
      screen.getByText(
        'On the other device, open Ferry, choose Receive and type these words. Ferry connects as soon as they do; keep this window open.',
      ),
    ).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your code' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(backend.callsOf('cancel')).toHaveLength(1);
  });

  it('copies the code and confirms it, then offers Copy again', async () => {
    await showing(WAITING_FOR_PEER);
    useManualClock();
    try {
      await act(async () => screen.getByRole('button', { name: 'Copy' }).click());
      expect(await navigator.clipboard.readText()).toBe(CODE);
      expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
      expect(screen.getByText('The code is on the clipboard.')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(2500));
      expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says so when the clipboard refuses', async () => {
    const { user } = await showing(WAITING_FOR_PEER);
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(
      screen.getByText('Ferry could not copy the code; select the words and copy them instead.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copied' })).toBeNull();
  });

  it('copies by selection on a page without the clipboard API (plain HTTP), or says so', async () => {
    const { user } = await showing(WAITING_FOR_PEER, {
      snapshot: {
        lanRoom: { state: 'on', url: LAN_URL },
        settings: { ...TEST_SETTINGS, serverUrl: LAN_URL },
      },
    });
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
    const selected: string[] = [];
    let copies = true;
    Object.defineProperty(document, 'execCommand', {
      configurable: true,
      value: () => {
        const field = document.activeElement;
        if (field instanceof HTMLTextAreaElement) selected.push(field.value);
        return copies;
      },
    });
    try {
      await user.click(screen.getByRole('button', { name: 'Copy' }));
      expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
      expect(selected).toEqual([CODE]);
      copies = false;
      await user.click(screen.getByRole('button', { name: 'Copy link' }));
      expect(
        await screen.findByText(
          'Ferry could not copy the link; scan the QR code or read out the code instead.',
        ),
      ).toBeTruthy();
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
      Reflect.deleteProperty(document, 'execCommand');
    }
  });

  it('on a page opened over plain HTTP, says it cannot notify while the person waits', async () => {
    await showing(WAITING_FOR_PEER, {
      capabilities: { plainHttpLimits: ['choose-folder', 'stream-downloads', 'notify'] },
    });
    expect(screen.getByTestId('plain-http-limits').textContent).toBe(
      'This page was opened over plain HTTP, so the browser does not let it notify you while it is out of sight. Opened over https or from localhost it may; the Ferry desktop app always can.',
    );
  });

  it('says nothing of plain HTTP on the code screen of a page not opened over it', async () => {
    await showing(WAITING_FOR_PEER);
    expect(screen.queryByTestId('plain-http-limits')).toBeNull();
  });

  it('puts the code itself in the QR code when no web client can receive it', async () => {
    await showing(WAITING_FOR_PEER);
    const qr = screen.getByRole('img', { name: 'QR code of the code' });
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(qrDrawingOf(CODE));
    expect(screen.getByText('Or scan this to read the code on another device.')).toBeTruthy();
  });

  it('puts a receive link in the QR code when this device’s LAN room holds the code', async () => {
    await showing(WAITING_FOR_PEER, {
      snapshot: {
        lanRoom: { state: 'on', url: LAN_URL },
        settings: { ...TEST_SETTINGS, serverUrl: LAN_URL },
      },
    });
    const qr = screen.getByRole('img', { name: 'QR code of a link that receives these files' });
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(
      qrDrawingOf(`${LAN_URL}/#receive=${CODE}`),
    );
    expect(
      screen.getByText('Or scan this with a phone on the same network to receive in its browser.'),
    ).toBeTruthy();
  });

  it('a send to a nearby device shows no code: it waits for that device to answer', async () => {
    if (WAITING_FOR_PEER.phase !== 'waiting-for-peer') throw new Error('the fixture waits');
    const { user, backend } = await showing({ ...WAITING_FOR_PEER, code: '', to: 'Ana’s phone' });
    expect(screen.getByRole('heading', { name: 'Waiting for Ana’s phone to answer' })).toBeTruthy();
    expect(screen.queryByTestId('transfer-code')).toBeNull();
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(backend.callsOf('cancel')).toEqual([[]]);
  });

  it('puts the secret link’s key beside the code in the QR code’s link and Copy link', async () => {
    const key = 'q83vEjRWeJCrze8SNFZ4kA';
    if (WAITING_FOR_PEER.phase !== 'waiting-for-peer') throw new Error('the fixture waits');
    const { user } = await showing(
      { ...WAITING_FOR_PEER, key },
      {
        snapshot: {
          lanRoom: { state: 'on', url: LAN_URL },
          settings: { ...TEST_SETTINGS, serverUrl: LAN_URL },
        },
      },
    );
    const qr = screen.getByRole('img', { name: 'QR code of a link that receives these files' });
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(
      qrDrawingOf(`${LAN_URL}/#receive=${CODE}&key=${key}`),
    );
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(`${LAN_URL}/#receive=${CODE}&key=${key}`);
    expect(screen.getByText('The link is on the clipboard.')).toBeTruthy();
  });

  it('draws no QR code of a link only this computer can open, and says how a phone can receive', async () => {
    const { user } = await showing(WAITING_FOR_PEER, {
      webClientUrl: 'http://localhost:3000/',
    });
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
    expect(screen.getByTestId('phone-hint').textContent).toBe(
      'To receive on a phone, turn on Host a LAN room in Settings: this address works on this computer only.',
    );
    // The link still works on this computer, in another browser.
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(`http://localhost:3000/#receive=${CODE}`);
  });

  it('on a page without LAN rooms, says how to serve it to phones instead of naming the desktop app', async () => {
    await showing(WAITING_FOR_PEER, {
      webClientUrl: 'http://localhost:3000/',
      capabilities: { lanRoom: false },
    });
    expect(screen.getByTestId('phone-hint').textContent).toBe(
      'This page’s address works on this computer only. To receive on a phone on the same network, start Ferry with HOST=0.0.0.0 npm start and open this computer’s network address there.',
    );
  });

  it('puts the page’s own address in the QR code when other devices can reach it', async () => {
    await showing(WAITING_FOR_PEER, { webClientUrl: 'https://ferry.example/' });
    const qr = screen.getByRole('img', { name: 'QR code of a link that receives these files' });
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(
      qrDrawingOf(`https://ferry.example/#receive=${CODE}`),
    );
    expect(screen.getByText('Or scan this with a phone to receive in its browser.')).toBeTruthy();
  });

  it('counts down the code’s 10 minutes from when it is shown', async () => {
    const { backend } = await renderApp(createScriptedBackend());
    // Shown once the clock is manual, so the countdown starts on it.
    useManualClock();
    try {
      push(backend, { type: 'transfer', transfer: WAITING_FOR_PEER });
      expect(screen.getByTestId('code-countdown').textContent).toBe(
        'This code works for 10:00 more.',
      );
      await act(async () => {
        await vi.advanceTimersByTimeAsync(61_000);
      });
      expect(screen.getByTestId('code-countdown').textContent).toBe(
        'This code works for 8:59 more.',
      );
      await act(async () => {
        await vi.advanceTimersByTimeAsync(9 * 60_000);
      });
      expect(screen.getByTestId('code-countdown').textContent).toBe('This code has expired.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says it is connecting once the other device typed the code', async () => {
    await showing({ phase: 'connecting', direction: 'send', code: CODE, stage: 'direct' });
    expect(screen.getByRole('heading', { name: 'Connecting' })).toBeTruthy();
    expect(
      screen.getByText(
        'The other device typed the code. Setting up a direct, encrypted connection.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('waits for the other person to accept', async () => {
    await showing({ phase: 'waiting-for-acceptance', direction: 'send', code: CODE });
    expect(screen.getByRole('heading', { name: 'Waiting for the other person' })).toBeTruthy();
    expect(
      screen.getByText('They see what you are sending and choose whether to accept it.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('shows the verification words beside the wait, once it knows them', async () => {
    await showing({
      phase: 'waiting-for-acceptance',
      direction: 'send',
      code: CODE,
      peerCheck: { kind: 'words', words: 'plum otter cask' },
    });
    expect(screen.getByTestId('peer-check').textContent).toBe(
      'Verification words: plum otter cask — check the other device shows the same',
    );
    expect(screen.getByRole('heading', { name: 'Waiting for the other person' })).toBeTruthy();
  });

  it('says the secret link verified the receiver beside the wait, with no words to compare', async () => {
    await showing({
      phase: 'waiting-for-acceptance',
      direction: 'send',
      code: CODE,
      peerCheck: { kind: 'link' },
    });
    expect(screen.getByTestId('peer-check').textContent).toBe(
      'Verified automatically: the secret link matched',
    );
    expect(screen.queryByText(/^Verification words/)).toBeNull();
  });

  it('says plainly when the other device cannot be verified', async () => {
    await showing({
      phase: 'waiting-for-acceptance',
      direction: 'send',
      code: CODE,
      peerCheck: { kind: 'unverified' },
    });
    expect(screen.getByTestId('peer-check').textContent).toBe(
      'Not verified: the other device cannot show verification words.',
    );
  });

  it('says nothing of verification before the words are known', async () => {
    await showing({ phase: 'waiting-for-acceptance', direction: 'send', code: CODE });
    expect(screen.queryByTestId('peer-check')).toBeNull();
  });
});

describe('receiving, before any file arrives', () => {
  it('names the code it is looking for', async () => {
    await showing({ phase: 'connecting', direction: 'receive', code: CODE, stage: 'finding' });
    expect(screen.getByRole('heading', { name: 'Connecting' })).toBeTruthy();
    expect(screen.getByText(CODE)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it.each([
    ['finding', [], 'Finding the other device'],
    ['direct', ['Finding the other device (done)'], 'Connecting directly'],
    [
      'securing',
      ['Finding the other device (done)', 'Connecting directly (done)'],
      'Securing the connection',
    ],
  ] as const)(
    'at stage %s, shows the steps done and the one under way',
    async (stage, done, now) => {
      await showing({ phase: 'connecting', direction: 'receive', code: CODE, stage });
      const steps = within(screen.getByRole('list', { name: 'Connection steps' })).getAllByRole(
        'listitem',
      );
      expect(steps.map((step) => step.textContent)).toEqual([
        ...done,
        now,
        ...['Finding the other device', 'Connecting directly', 'Securing the connection'].slice(
          done.length + 1,
        ),
      ]);
      expect(steps[done.length].getAttribute('aria-current')).toBe('step');
    },
  );

  it('asks before accepting: first file, count, size and destination', async () => {
    await showing(OFFER);
    expect(screen.getByRole('heading', { name: 'Incoming files' })).toBeTruthy();
    expect(screen.getByText('Album/beach.jpg').parentElement?.textContent).toBe(
      'Album/beach.jpg and 12 more files',
    );
    const facts = screen.getAllByRole('definition').map((fact) => fact.textContent);
    expect(facts).toEqual(['13', '54.9 MB', '/home/ana/DownloadsChange']);
  });

  it('names a single file without "more"', async () => {
    await showing({
      ...OFFER,
      offer: {
        firstFileName: 'notes.txt',
        fileCount: 1,
        totalBytes: 1200,
        peerCheck: { kind: 'unverified' },
      },
    } as TransferView);
    expect(screen.getByText('notes.txt').parentElement?.textContent).toBe('notes.txt');
  });

  it('accepts into a folder chosen with Change', async () => {
    const backend = createScriptedBackend({ snapshot: { transfer: OFFER } });
    const { user } = await renderApp(backend);
    backend.respond('chooseDestination', ok('/media/usb'));
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(screen.getByText('/media/usb')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(backend.callsOf('answerOffer')).toEqual([[true, '/media/usb']]);
  });

  it('declines', async () => {
    const { user, backend } = await showing(OFFER);
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    expect(backend.callsOf('answerOffer')).toEqual([[false, undefined]]);
  });

  it('holds both answers while one is on its way', async () => {
    const backend = createScriptedBackend({ snapshot: { transfer: OFFER } });
    const { user } = await renderApp(backend);
    backend.hold('answerOffer');
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(isDisabled('Accept')).toBe(true);
    expect(isDisabled('Decline')).toBe(true);
  });

  it('has no Change button where the destination cannot be chosen', async () => {
    await showing(OFFER, { capabilities: { chooseDestination: false } });
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
    expect(screen.getByText('/home/ana/Downloads')).toBeTruthy();
  });

  it('says nothing of starting over where the default destination resumes', async () => {
    await showing(OFFER);
    expect(screen.queryByText(/start over/)).toBeNull();
  });

  it('says downloads start over, and that a chosen folder resumes, until one is chosen', async () => {
    const backend = createScriptedBackend({
      snapshot: { transfer: OFFER },
      capabilities: { defaultDestinationResumes: false },
    });
    const { user } = await renderApp(backend);
    expect(
      screen.getByText(
        'Downloads start over if the connection drops; a folder chosen with Change picks up where it left off.',
      ),
    ).toBeTruthy();
    backend.respond('chooseDestination', ok('Received'));
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(screen.queryByText(/start over/)).toBeNull();
  });

  it('only says downloads start over where no folder can be chosen', async () => {
    await showing(OFFER, {
      capabilities: { defaultDestinationResumes: false, chooseDestination: false },
    });
    expect(screen.getByText('Downloads start over if the connection drops.')).toBeTruthy();
  });
});

describe('progress', () => {
  it.each([
    ['send', 'Sending', 'The partial file is discarded on the other device'],
    ['receive', 'Receiving', 'The partial file is discarded; files that already arrived are kept.'],
  ] as const)(
    'on the %s side shows both bars, speed, time left and Cancel',
    async (direction, heading, consequence) => {
      const { user, backend } = await showing({
        phase: 'transferring',
        direction,
        progress: PROGRESS,
      });
      const panel = screen.getByTestId('transfer-progress');
      expect(within(panel).getByRole('heading', { name: heading })).toBeTruthy();
      expect(within(panel).getByText('Album/beach.jpg').parentElement?.textContent).toBe(
        'File 2 of 13: Album/beach.jpg',
      );
      expect(within(panel).getByText('1.0 MB of 4.2 MB')).toBeTruthy();
      expect(within(panel).getByText('21.0 MB of 54.9 MB')).toBeTruthy();
      expect(
        (within(panel).getByRole('progressbar', { name: 'Current file' }) as HTMLProgressElement)
          .value,
      ).toBe(0.25);
      expect(
        (within(panel).getByRole('progressbar', { name: 'All files' }) as HTMLProgressElement)
          .value,
      ).toBeCloseTo(20_971_520 / 54_945_382);
      expect(within(panel).getByText('2.1 MB/s · about 3 min 20 s left')).toBeTruthy();
      expect(within(panel).getByText(new RegExp(consequence))).toBeTruthy();
      await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
      expect(backend.callsOf('cancel')).toHaveLength(1);
    },
  );

  it('shows a batch of one file as one bar with a percentage', async () => {
    await showing({
      phase: 'transferring',
      direction: 'receive',
      progress: {
        ...PROGRESS,
        fileIndex: 1,
        fileCount: 1,
        fileName: 'movie.mkv',
        fileBytes: 1_048_576,
        fileSize: 4_194_304,
        bytesDone: 1_048_576,
        totalBytes: 4_194_304,
      },
    });
    const panel = screen.getByTestId('transfer-progress');
    const bars = within(panel).getAllByRole('progressbar') as HTMLProgressElement[];
    expect(bars.map((bar) => [bar.getAttribute('aria-label'), bar.value])).toEqual([
      ['Progress', 0.25],
    ]);
    expect(within(panel).getByText('movie.mkv')).toBeTruthy();
    expect(within(panel).getByText('1.0 MB of 4.2 MB · 25 %')).toBeTruthy();
    expect(within(panel).queryByText(/^File 1 of 1/)).toBeNull();
  });

  it.each([
    ['send', 'The other device keeps what arrived'],
    ['receive', 'What arrived is kept'],
  ] as const)(
    'on the %s side says a cancel keeps what arrived when the peers agreed to resume',
    async (direction, consequence) => {
      await showing({
        phase: 'transferring',
        direction,
        progress: { ...PROGRESS, keepsPartial: true },
      });
      const panel = screen.getByTestId('transfer-progress');
      expect(within(panel).getByText(new RegExp(consequence))).toBeTruthy();
      expect(within(panel).queryByText(/discarded/)).toBeNull();
    },
  );

  it.each([
    [{ kind: 'words', words: 'plum otter cask' }, /^Verification words: plum otter cask/],
    [{ kind: 'unverified' }, /^Not verified: the other device cannot show verification words\.$/],
  ] as const)('keeps the peer check %o in sight while the files move', async (peerCheck, line) => {
    await showing({ phase: 'transferring', direction: 'receive', progress: PROGRESS, peerCheck });
    const panel = screen.getByTestId('transfer-progress');
    expect(within(panel).getByTestId('peer-check').textContent).toMatch(line);
  });

  it('shows a lost link being restored, with what is kept, and Cancel', async () => {
    const { user, backend } = await showing({
      phase: 'reconnecting',
      direction: 'receive',
      attempt: 2,
      bytesDone: 20_971_520,
      totalBytes: 54_945_382,
    });
    expect(
      screen.getByRole('heading', { name: 'Connection lost — reconnecting (attempt 2)…' }),
    ).toBeTruthy();
    expect(screen.getByText(/21.0 MB of 54.9 MB are kept/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(backend.callsOf('cancel')).toHaveLength(1);
  });

  it('says it is estimating until a speed is known, and shows an empty file as complete', async () => {
    await showing({
      phase: 'transferring',
      direction: 'receive',
      progress: {
        ...PROGRESS,
        fileBytes: 0,
        fileSize: 0,
        etaSeconds: undefined,
        bytesPerSecond: 0,
      },
    });
    expect(screen.getByText('0 B/s · estimating time left')).toBeTruthy();
    expect(
      (screen.getByRole('progressbar', { name: 'Current file' }) as HTMLProgressElement).value,
    ).toBe(1);
  });

  it('moves as the backend reports', async () => {
    const backend = createScriptedBackend({
      snapshot: { transfer: { phase: 'transferring', direction: 'receive', progress: PROGRESS } },
    });
    await renderApp(backend);
    push(backend, {
      type: 'transfer',
      transfer: {
        phase: 'transferring',
        direction: 'receive',
        progress: { ...PROGRESS, fileBytes: 4_194_304 },
      },
    });
    expect(screen.getByText('4.2 MB of 4.2 MB')).toBeTruthy();
  });
});

describe('done', () => {
  const received: TransferView = {
    phase: 'done',
    direction: 'receive',
    files: [
      {
        name: 'Album/beach.jpg',
        size: 4_194_304,
        savedPath: '/home/ana/Downloads/Album/beach.jpg',
      },
      { name: 'notes.txt', size: 1200, savedPath: '/home/ana/Downloads/notes.txt' },
    ],
    totalBytes: 4_195_504,
    folder: '/home/ana/Downloads',
  };

  it('tells the receiver what arrived and where, with a way to each file', async () => {
    const { user, backend } = await showing(received);
    const done = screen.getByTestId('transfer-done');
    expect(within(done).getByRole('heading', { name: 'Received' })).toBeTruthy();
    expect(within(done).getByText('2 files, 4.2 MB saved in /home/ana/Downloads.')).toBeTruthy();
    await user.click(within(done).getByRole('button', { name: 'Open folder' }));
    expect(backend.callsOf('openFolder')).toEqual([['/home/ana/Downloads']]);
    await user.click(within(done).getByRole('button', { name: 'Show in folder: notes.txt' }));
    expect(backend.callsOf('revealFile')).toEqual([['/home/ana/Downloads/notes.txt']]);
  });

  it('says why a folder could not be opened', async () => {
    const backend = createScriptedBackend({ snapshot: { transfer: received } });
    backend.respond('openFolder', err('ERR_INTERNAL', 'the folder no longer exists'));
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Open folder' }));
    expect(screen.getByText('The folder no longer exists.')).toBeTruthy();
  });

  it('offers no folder buttons where files cannot be revealed', async () => {
    await showing(received, { capabilities: { revealFiles: false } });
    expect(screen.queryByRole('button', { name: 'Open folder' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Show in folder/ })).toBeNull();
    expect(screen.getByText('notes.txt')).toBeTruthy();
  });

  it('returns the receiver to idle with Receive another', async () => {
    const { user, backend } = await showing(received);
    await user.click(screen.getByRole('button', { name: 'Receive another' }));
    expect(backend.callsOf('dismiss')).toHaveLength(1);
    push(backend, { type: 'transfer', transfer: { phase: 'idle' } });
    expect(screen.getByRole('heading', { name: 'Receive files' })).toBeTruthy();
  });

  it('tells the sender the files were delivered', async () => {
    const { user, backend } = await showing({
      phase: 'done',
      direction: 'send',
      files: [{ name: 'photo.jpg', size: PHOTO.size }],
      totalBytes: PHOTO.size,
    });
    const done = screen.getByTestId('transfer-done');
    expect(within(done).getByRole('heading', { name: 'Delivered' })).toBeTruthy();
    expect(within(done).getByText('1 file, 2.5 MB arrived on the other device.')).toBeTruthy();
    expect(within(done).queryByRole('button', { name: 'Open folder' })).toBeNull();
    await user.click(within(done).getByRole('button', { name: 'Send more' }));
    expect(backend.callsOf('dismiss')).toHaveLength(1);
  });

  it('says plainly when a receiver that confirms batches never confirmed this one', async () => {
    await showing({
      phase: 'done',
      direction: 'send',
      files: [{ name: 'photo.jpg', size: PHOTO.size }],
      totalBytes: PHOTO.size,
      confirmed: false,
    });
    const done = screen.getByTestId('transfer-done');
    expect(
      within(done).getByText('1 file, 2.5 MB sent (not confirmed by the receiver).'),
    ).toBeTruthy();
  });

  it('says every file was verified, and what of each was already there', async () => {
    await showing({
      phase: 'done',
      direction: 'send',
      files: [
        { name: 'big.bin', size: 20 * 1024 * 1024, verified: true, resumedBytes: 12 * 1024 * 1024 },
        { name: 'same.bin', size: 1200, verified: true, resumedBytes: 1200 },
        { name: 'new.bin', size: 1200, verified: true },
      ],
      totalBytes: 8 * 1024 * 1024 + 1200,
      confirmed: true,
      verified: true,
    });
    const done = screen.getByTestId('transfer-done');
    expect(within(done).getByRole('heading', { name: 'Delivered and verified' })).toBeTruthy();
    const items = within(done)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.file-note')?.textContent);
    expect(items).toEqual([
      'verified, 12.6 MB was already there',
      'verified, already there, nothing sent',
      'verified',
    ]);
  });

  it('claims no verification where a file was not confirmed', async () => {
    await showing({
      phase: 'done',
      direction: 'receive',
      files: [{ name: 'a.bin', size: 10, verified: false }],
      totalBytes: 10,
      verified: false,
    });
    const done = screen.getByTestId('transfer-done');
    expect(within(done).getByRole('heading', { name: 'Received' })).toBeTruthy();
    expect(within(done).getByText('not verified')).toBeTruthy();
  });

  it('lists what arrived as the same tree of folders as the prompt, on both sides', async () => {
    for (const direction of ['send', 'receive'] as const) {
      await showing({
        phase: 'done',
        direction,
        files: [
          { name: 'album/2024/a.jpg', size: 1000 },
          { name: 'album/2024/b.jpg', size: 2000 },
          { name: 'album/cover.jpg', size: 500 },
          { name: 'notes.txt', size: 10 },
        ],
        totalBytes: 3510,
      });
      const list = screen.getByRole('list', {
        name: direction === 'send' ? 'Delivered files' : 'Received files',
      });
      const rows = (of: HTMLElement) =>
        Array.from(of.querySelectorAll(':scope > li')).map((row) =>
          Array.from(row.querySelectorAll(':scope > span'))
            .map((span) => span.textContent)
            .join(' '),
        );
      expect(rows(list)).toEqual(['album/ 3 files, 3.5 kB', 'notes.txt 10 B']);
      expect(rows(within(list).getByRole('list', { name: 'In album' }))).toEqual([
        '2024/ 2 files, 3.0 kB',
        'cover.jpg 500 B',
      ]);
      expect(rows(within(list).getByRole('list', { name: 'In 2024' }))).toEqual([
        'a.jpg 1.0 kB',
        'b.jpg 2.0 kB',
      ]);
      cleanup();
    }
  });

  it('lists a large batch only in part', async () => {
    const files = Array.from({ length: MAX_LISTED_FILES + 5 }, (_, index) => ({
      name: `scan-${index}.png`,
      size: 10,
    }));
    await showing({ phase: 'done', direction: 'send', files, totalBytes: files.length * 10 });
    expect(
      within(screen.getByRole('list', { name: 'Delivered files' })).getAllByRole('listitem'),
    ).toHaveLength(MAX_LISTED_FILES);
    expect(screen.getByText('and 5 more files')).toBeTruthy();
  });
});

describe('failed', () => {
  const HEADINGS: Record<string, string> = {
    ERR_SIGNALING_UNREACHABLE: 'Could not reach the server',
    ERR_CODE_NOT_FOUND: 'That code did not work',
    ERR_CODE_USED: 'That code was already used',
    ERR_CODE_CANCELLED: 'That code was cancelled',
    ERR_NO_ONE_WAITING: 'No one is waiting on that code',
    ERR_CONNECT_TIMEOUT: 'Could not connect to the other device',
    ERR_PEER_CLOSED: 'Connection lost',
    ERR_ACK_TIMEOUT: 'No answer from the other device',
    ERR_NOT_CONFIRMED: 'Transfer declined',
    ERR_PEER_ABORTED: 'Stopped by the other device',
    ERR_INCOMPATIBLE_VERSION: 'Incompatible versions',
    ERR_SIZE_MISMATCH: 'File discarded',
    ERR_PROTOCOL: 'Transfer refused',
    ERR_SOURCE_CHANGED: 'A file could not be sent',
    ERR_RELAY_SIZE_CAP: 'Too large for a relayed connection',
    ERR_DISK: 'A file could not be saved',
    ERR_DISK_FULL: 'Not enough free space',
  };

  it.each(Object.entries(HEADINGS))('%s has the heading “%s”', async (code, heading) => {
    await showing({ phase: 'failed', direction: 'receive', code: code as ErrorCode, message: 'x' });
    expect(screen.getByRole('alert', { name: heading })).toBeTruthy();
  });

  // A person's choice, here or there, is no error (docs/protocol.md, "Named outcomes").
  const CHOSEN: readonly ErrorCode[] = [
    'ERR_CODE_EXPIRED',
    'ERR_DECLINED',
    'ERR_CANCELLED',
    'ERR_PEER_DECLINED',
    'ERR_PEER_CANCELLED',
  ];

  it.each([
    ['receive', 'ERR_DECLINED', 'Transfer declined', 'You declined the files.', 'Back'],
    ['send', 'ERR_CANCELLED', 'Transfer stopped', 'You stopped the transfer.', 'Back'],
    ['receive', 'ERR_CANCELLED', 'Transfer stopped', 'You stopped the transfer.', 'Back'],
    ['send', 'ERR_PEER_DECLINED', 'Declined by the other person', undefined, 'Send again'],
    ['send', 'ERR_PEER_CANCELLED', 'Stopped by the other person', undefined, 'Send again'],
    ['receive', 'ERR_PEER_CANCELLED', 'Stopped by the other person', undefined, 'Back'],
    [
      'send',
      'ERR_CODE_EXPIRED',
      'This code expired — get a new one',
      'Nobody used it within its 10 minutes.',
      'Get a new code',
    ],
  ] as const)(
    'a %s side failed with %s says “%s” plainly, not as an error',
    async (direction, code, heading, said, button) => {
      await showing({ phase: 'failed', direction, code, message: ERROR_MESSAGES[code] });
      expect(screen.queryByRole('alert')).toBeNull();
      const card = screen.getByRole('region', { name: heading });
      expect(card.className).not.toContain('step--failed');
      expect(
        within(card).queryByText(
          /^(The transfer was|Declined by|Stopped by|The code expired).*\.$/,
        ),
      ).toBeNull();
      if (said !== undefined) expect(within(card).getByText(said)).toBeTruthy();
      expect(within(card).getByRole('button', { name: button })).toBeTruthy();
    },
  );

  it('sends the same files again, under a new code, with Send again after a decline there', async () => {
    const backend = createScriptedBackend({
      snapshot: {
        transfer: {
          phase: 'failed',
          direction: 'send',
          code: 'ERR_PEER_DECLINED',
          message: ERROR_MESSAGES.ERR_PEER_DECLINED,
        },
        opened: ok([PHOTO]),
      },
    });
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Send again' }));
    expect(backend.callsOf('dismiss')).toHaveLength(1);
    expect(backend.callsOf('startSend')).toEqual([[[PHOTO]]]);
  });

  it('only goes back when the sender stopped', async () => {
    const backend = createScriptedBackend({
      snapshot: {
        transfer: {
          phase: 'failed',
          direction: 'receive',
          code: 'ERR_PEER_CANCELLED',
          message: ERROR_MESSAGES.ERR_PEER_CANCELLED,
        },
      },
    });
    const { user } = await renderApp(backend, `#receive=${CODE}`);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(backend.callsOf('dismiss')).toHaveLength(1);
    expect(backend.callsOf('startReceive')).toEqual([]);
  });

  // docs/protocol.md, "Dead codes": dialled again, the code would fail again at once.
  it.each([
    'ERR_CODE_NOT_FOUND',
    'ERR_CODE_USED',
    'ERR_CODE_CANCELLED',
    'ERR_NO_ONE_WAITING',
  ] as const)(
    '%s offers only Back, which never dials the code again and keeps it to edit',
    async (code) => {
      const backend = createScriptedBackend({
        snapshot: {
          transfer: { phase: 'failed', direction: 'receive', code, message: ERROR_MESSAGES[code] },
        },
      });
      const { user } = await renderApp(backend, `#receive=${CODE}`);
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(backend.callsOf('dismiss')).toHaveLength(1);
      expect(backend.callsOf('startReceive')).toEqual([]);
    },
  );

  it.each(ERROR_CODES.filter((code) => !CHOSEN.includes(code)).map((code) => [code]))(
    '%s shows its message as one sentence under a heading, with a way out',
    async (code) => {
      await showing({ phase: 'failed', direction: 'send', code, message: ERROR_MESSAGES[code] });
      const alert = screen.getByRole('alert');
      expect(within(alert).getByRole('heading').textContent).not.toBe('Transfer failed');
      const sentence = ERROR_MESSAGES[code].charAt(0).toUpperCase() + ERROR_MESSAGES[code].slice(1);
      expect(within(alert).getByText(`${sentence}.`)).toBeTruthy();
      expect(within(alert).getByRole('button', { name: /^(Try again|Back)$/ })).toBeTruthy();
    },
  );

  it('shows a version mismatch with the remedy the engine wrote', async () => {
    const message =
      'The other device runs an older Ferry (protocol 1 to 1; this one needs 2); update Ferry on that device.';
    await showing({
      phase: 'failed',
      direction: 'receive',
      code: 'ERR_INCOMPATIBLE_VERSION',
      message,
    });
    const alert = screen.getByRole('alert', { name: 'Incompatible versions' });
    expect(within(alert).getByText(message)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Back' })).toBeTruthy();
  });

  it('reads an unexpected failure of this device as one that may be tried again', async () => {
    await showing({ phase: 'failed', direction: 'send', code: 'ERR_UNEXPECTED', message: 'boom' });
    expect(screen.getByRole('alert', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('sends the same files again with Try again', async () => {
    const backend = createScriptedBackend({
      snapshot: {
        transfer: { phase: 'failed', direction: 'send', code: 'ERR_PEER_CLOSED', message: 'x' },
        opened: ok([PHOTO]),
      },
    });
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(backend.callsOf('dismiss')).toHaveLength(1);
    expect(backend.callsOf('startSend')).toEqual([[[PHOTO]]]);
  });

  it('receives the same code again with Try again', async () => {
    const backend = createScriptedBackend({
      snapshot: {
        transfer: {
          phase: 'failed',
          direction: 'receive',
          code: 'ERR_CONNECT_TIMEOUT',
          message: 'x',
        },
      },
    });
    const { user } = await renderApp(backend, `#receive=${CODE}`);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(backend.callsOf('startReceive')).toEqual([[CODE]]);
  });

  it('only goes back after a decline', async () => {
    const backend = createScriptedBackend({
      snapshot: {
        transfer: {
          phase: 'failed',
          direction: 'send',
          code: 'ERR_DECLINED',
          message: 'the transfer was declined',
        },
        opened: ok([PHOTO]),
      },
    });
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(backend.callsOf('dismiss')).toHaveLength(1);
    expect(backend.callsOf('startSend')).toEqual([]);
  });

  it('does not start again when leaving the failure was refused', async () => {
    const backend = createScriptedBackend({
      snapshot: {
        transfer: { phase: 'failed', direction: 'send', code: 'ERR_PEER_CLOSED', message: 'x' },
        opened: ok([PHOTO]),
      },
    });
    backend.respond('dismiss', err('ERR_INTERNAL', 'the transfer could not be closed'));
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(backend.callsOf('startSend')).toEqual([]);
    expect(screen.getByText('The transfer could not be closed.')).toBeTruthy();
  });
});
