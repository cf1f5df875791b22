import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src-shared/history/transfer-history';
import { push, renderApp } from '../testing/render-app';
import {
  createScriptedBackend,
  TEST_DEVICES,
  TEST_SETTINGS,
  testDevice,
} from '../testing/scripted-backend';
import { ok } from '../../src-shared/ipc/result';

const MB = 1024 * 1024;
const AT = Date.UTC(2026, 10, 25, 12, 3);

const RECEIVED: HistoryEntry = {
  id: 'received',
  direction: 'receive',
  at: AT,
  fileCount: 14,
  totalBytes: 12 * MB,
  files: [
    { name: 'photos/a.jpg', size: MB, savedPath: '/home/ana/Downloads/photos/a.jpg' },
    { name: 'photos/b.jpg', size: MB, savedPath: '/home/ana/Downloads/photos/b.jpg' },
  ],
  peer: { check: 'device', name: 'Ana laptop' },
  folder: '/home/ana/Downloads',
};

const SENT: HistoryEntry = {
  id: 'sent',
  direction: 'send',
  at: AT - 60_000,
  fileCount: 1,
  totalBytes: 2048,
  files: [{ name: 'report.pdf', size: 2048 }],
  peer: { check: 'unverified' },
};

async function openHistory(history: HistoryEntry[] = [RECEIVED, SENT]) {
  const rendered = await renderApp(createScriptedBackend({ snapshot: { history } }));
  await rendered.user.click(screen.getByRole('tab', { name: 'Settings' }));
  return { ...rendered, panel: screen.getByRole('region', { name: 'History' }) };
}

const entries = () =>
  within(screen.getByRole('region', { name: 'Past transfers' })).queryAllByRole('listitem', {
    name: /^(Received|Sent)/,
  });

describe('the history in the desktop app', () => {
  it('lists finished transfers newest first: what, how much, with whom, when and where', async () => {
    await openHistory();
    const [received, sent] = entries();
    const line = new Date(AT).toLocaleString(undefined, {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    expect(received.getAttribute('aria-labelledby')).toBeTruthy();
    expect(
      within(received).getByText(/^Received 14 files, 12\.6 MB from “Ana laptop”/),
    ).toBeTruthy();
    expect(received.textContent).toContain(`· verified · ${line}`);
    // The same tree as the prompt and the done screen: the folder, then its files by their own names.
    const files = within(received).getByRole('list', { name: 'Files' });
    expect(files.querySelector(':scope > li > .file-name')?.textContent).toBe('photos/');
    expect(
      within(within(files).getByRole('list', { name: 'In photos' }))
        .getAllByRole('listitem')
        .map((row) => row.querySelector('.file-name')?.textContent),
    ).toEqual(['a.jpg', 'b.jpg']);
    expect(within(received).getByText('and 12 other files')).toBeTruthy();
    expect(within(received).getByText('Saved in /home/ana/Downloads')).toBeTruthy();
    expect(sent.textContent).toContain('Sent 1 file, 2.0 kB · not verified');
    // Nothing to open for a send: its files are where they always were.
    expect(within(sent).queryByRole('button')).toBeNull();
  });

  it('opens the folder of an entry and shows one of its files', async () => {
    const { user, backend } = await openHistory();
    const [received] = entries();
    await user.click(
      within(received).getByRole('button', { name: 'Open folder: /home/ana/Downloads' }),
    );
    await user.click(
      within(received).getByRole('button', { name: 'Show in folder: photos/b.jpg' }),
    );
    expect(backend.callsOf('openFolder')).toEqual([['/home/ana/Downloads']]);
    expect(backend.callsOf('revealFile')).toEqual([['/home/ana/Downloads/photos/b.jpg']]);
  });

  it('is a scrollable region the keyboard can reach', async () => {
    const { user } = await openHistory();
    const region = screen.getByRole('region', { name: 'Past transfers' });
    expect(region.tabIndex).toBe(0);
    region.focus();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Show in folder');
  });

  it('clears only after a second step, and Cancel leaves it as it was', async () => {
    const { user, backend } = await openHistory();
    await user.click(screen.getByRole('button', { name: 'Clear history' }));
    const question = screen.getByRole('group', { name: /^Clear all 2 entries in the history\?/ });
    expect(document.activeElement).toBe(
      within(question).getByRole('button', { name: 'Yes, clear history' }),
    );
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(backend.callsOf('clearHistory')).toEqual([]);
    expect(entries()).toHaveLength(2);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Clear history' }));

    await user.click(screen.getByRole('button', { name: 'Clear history' }));
    await user.click(screen.getByRole('button', { name: 'Yes, clear history' }));
    expect(backend.callsOf('clearHistory')).toEqual([[]]);
    const empty = await screen.findByText('No transfers yet. Each one you finish is listed here.');
    expect(screen.queryByRole('region', { name: 'Past transfers' })).toBeNull();
    await expect.poll(() => document.activeElement).toBe(empty);
  });

  it('shows a transfer the moment the backend adds it', async () => {
    const { backend } = await openHistory([]);
    expect(screen.getByText('No transfers yet. Each one you finish is listed here.')).toBeTruthy();
    push(backend, { type: 'history', history: [SENT] });
    expect(entries()).toHaveLength(1);
  });

  it('can be turned off, which the backend answers by emptying it', async () => {
    const { user, backend } = await openHistory();
    const keep = screen.getByRole('checkbox', {
      name: 'Keep a history of finished transfers',
    }) as HTMLInputElement;
    expect(keep.checked).toBe(true);
    await user.click(keep);
    expect(backend.callsOf('updateSettings')).toEqual([[{ keepHistory: false }]]);
    push(backend, { type: 'history', history: [] });
    expect(keep.checked).toBe(false);
    expect(screen.getByText('History is off: finished transfers are not kept.')).toBeTruthy();
  });
});

describe('the history in the web client', () => {
  it('sits in a disclosure, says where the browser saved, and offers nothing to open', async () => {
    const downloaded: HistoryEntry = {
      ...RECEIVED,
      files: RECEIVED.files.map(({ name, size }) => ({ name, size })),
      folder: undefined,
      downloads: { archive: 'photos.zip' },
    };
    const backend = createScriptedBackend({
      surface: 'browser',
      capabilities: { settings: false, revealFiles: false, lanRoom: false },
      snapshot: { history: [downloaded], settings: { ...TEST_SETTINGS, downloadFolder: '' } },
    });
    const { user } = await renderApp(backend);
    const disclosure = screen.getByTestId('web-history') as HTMLDetailsElement;
    expect(disclosure.open).toBe(false);
    await user.click(within(disclosure).getByText('History', { selector: 'summary' }));
    expect(disclosure.open).toBe(true);
    const [entry] = entries();
    expect(within(entry).getByText('Saved to the browser’s downloads as photos.zip')).toBeTruthy();
    expect(within(entry).queryByRole('button')).toBeNull();
  });

  it('offers "Send again to this device" where that device is remembered, and pins the send to it', async () => {
    const fingerprint = `sha-256 ${Array.from({ length: 32 }, () => 'AB').join(':')}`;
    const sentToLaptop: HistoryEntry = {
      ...SENT,
      peer: { check: 'words', announcedName: 'ana-laptop', fingerprint },
    };
    const photo = { id: 'photo', name: 'photo.jpg', size: 10, isDirectory: false, fileCount: 1 };
    const backend = createScriptedBackend({
      surface: 'browser',
      capabilities: { settings: false, revealFiles: false, lanRoom: false },
      snapshot: {
        // An entry whose device is not remembered offers nothing.
        history: [sentToLaptop, { ...SENT, id: 'other' }],
        devices: { ...TEST_DEVICES, remembered: [testDevice('Ana laptop', fingerprint)] },
        opened: ok([photo]),
      },
    });
    const { user } = await renderApp(backend);
    await user.click(screen.getByText('History', { selector: 'summary' }));
    const [remembered, other] = entries();
    expect(within(other).queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('pinned-peer')).toBeNull();
    await user.click(
      within(remembered).getByRole('button', { name: 'Send again to this device: Ana laptop' }),
    );
    expect(screen.getByRole('tab', { name: 'Send', selected: true })).toBeTruthy();
    expect(screen.getByTestId('pinned-peer').textContent).toContain(
      'Only “Ana laptop” can receive these files',
    );
    // The keyboard goes on from the pin, not from the history far below it.
    expect(document.activeElement).toBe(screen.getByTestId('pinned-peer'));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(backend.callsOf('startSend')).toEqual([[[photo], fingerprint]]);

    // Sending to any device again drops the pin.
    await user.click(screen.getByRole('button', { name: 'Send to any device' }));
    expect(screen.queryByTestId('pinned-peer')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(backend.callsOf('startSend')[1]).toEqual([[photo]]);
  });
});
