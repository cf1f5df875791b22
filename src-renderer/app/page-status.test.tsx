import { act, cleanup, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { PROGRESS } from '../testing/fixtures';
import { push, renderApp, useManualClock } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

const transferring = (bytesDone: number): TransferView => ({
  phase: 'transferring',
  direction: 'send',
  progress: { ...PROGRESS, bytesDone, totalBytes: 1000 },
});
const done: TransferView = {
  phase: 'done',
  direction: 'send',
  files: [{ name: 'a.bin', size: 4_000_000 }],
  totalBytes: 4_000_000,
};

/** Whether leaving the page now would be questioned. */
function leavingIsQuestioned(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('what the page says outside its content', () => {
  it('puts the progress in the title while files move, and only then', async () => {
    const backend = createScriptedBackend();
    await renderApp(backend);
    expect(document.title).toBe('Ferry');
    push(backend, { type: 'transfer', transfer: transferring(420) });
    expect(document.title).toBe('42% Sending — Ferry');
    push(backend, { type: 'transfer', transfer: done });
    expect(document.title).toBe('Ferry');
  });

  it('in a browser, questions leaving the page while a transfer is under way', async () => {
    const backend = createScriptedBackend({ surface: 'browser' });
    await renderApp(backend);
    expect(leavingIsQuestioned()).toBe(false);
    push(backend, { type: 'transfer', transfer: transferring(1) });
    expect(leavingIsQuestioned()).toBe(true);
    push(backend, { type: 'transfer', transfer: done });
    expect(leavingIsQuestioned()).toBe(false);
  });

  it('in the desktop app leaves closing to the app itself', async () => {
    const backend = createScriptedBackend({ surface: 'desktop' });
    await renderApp(backend);
    push(backend, { type: 'transfer', transfer: transferring(1) });
    expect(leavingIsQuestioned()).toBe(false);
  });

  it('says how long the files took and how fast they went, once done', async () => {
    const backend = createScriptedBackend();
    await renderApp(backend);
    // From the first progress on, the clock moves only when the test moves it.
    useManualClock();
    try {
      push(backend, { type: 'transfer', transfer: transferring(1) });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2000);
      });
      push(backend, { type: 'transfer', transfer: done });
      expect(screen.getByTestId('transfer-timing').textContent).toBe(
        'Took 2 s, 2.0 MB/s on average.',
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

/** The browser's notifications as this page uses them: jsdom has none of its own. */
class RecordedNotification {
  static permission: NotificationPermission = 'granted';
  static shown: { title: string; body: string | undefined }[] = [];
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    RecordedNotification.shown.push({ title, body: options?.body });
  }
  close(): void {}
}

const OFFERED: TransferView = {
  phase: 'awaiting-acceptance',
  direction: 'receive',
  destination: 'Downloads',
  offer: {
    firstFileName: 'a.jpg',
    fileCount: 1,
    totalBytes: 10,
    peerCheck: { kind: 'unverified' },
  },
};

describe('notifications from a page out of sight', () => {
  it('tell of an offer and a finished transfer in a browser, and nothing in the desktop app’s window', async () => {
    vi.stubGlobal('Notification', RecordedNotification);
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    RecordedNotification.shown = [];
    try {
      const browser = createScriptedBackend({ surface: 'browser' });
      await renderApp(browser);
      push(browser, { type: 'transfer', transfer: OFFERED });
      push(browser, { type: 'transfer', transfer: done });
      expect(RecordedNotification.shown.map((shown) => shown.title)).toEqual([
        'Files offered',
        'Delivered',
      ]);
      cleanup();

      RecordedNotification.shown = [];
      const desktop = createScriptedBackend({ surface: 'desktop' });
      await renderApp(desktop);
      push(desktop, { type: 'transfer', transfer: OFFERED });
      expect(RecordedNotification.shown).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    }
  });
});
