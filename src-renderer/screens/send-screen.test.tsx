import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { ALBUM, PHOTO } from '../testing/fixtures';
import { IDLE_TRANSFER } from '../../src-shared/transfer/transfer-view';
import { push, renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

const filesDrag = { dataTransfer: { types: ['Files'], files: [], dropEffect: 'none' } };

describe('the send screen', () => {
  it('starts empty, with a drop zone, both pickers and Send off', async () => {
    await renderApp();
    const zone = screen.getByTestId('drop-zone');
    expect(within(zone).getByText('Drop files or folders here')).toBeTruthy();
    expect(within(zone).getByRole('button', { name: 'Choose files' })).toBeTruthy();
    expect(within(zone).getByRole('button', { name: 'Choose folder' })).toBeTruthy();
    expect(screen.getByText('Nothing chosen yet.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists what was chosen with sizes and a total, once each', async () => {
    const backend = createScriptedBackend();
    const { user } = await renderApp(backend);
    backend.respond('pickFiles', ok([PHOTO]));
    backend.respond('pickFolder', ok([ALBUM]));
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    await user.click(screen.getByRole('button', { name: 'Choose folder' }));
    await user.click(screen.getByRole('button', { name: 'Choose files' }));

    const list = screen.getByRole('list', { name: 'Chosen files and folders' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'photo.jpg2.5 MBRemove',
      'AlbumFolder, 12 files, 52.4 MBRemove',
    ]);
    expect(screen.getByText('Total: 13 files, 54.9 MB')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('removes an item from the list', async () => {
    const backend = createScriptedBackend({ snapshot: { opened: ok([PHOTO, ALBUM]) } });
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Remove photo.jpg' }));
    expect(screen.queryByText('photo.jpg')).toBeNull();
    expect(screen.getByText('Total: 12 files, 52.4 MB')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove Album' }));
    expect(screen.getByText('Nothing chosen yet.')).toBeTruthy();
  });

  it('sends what is listed', async () => {
    const backend = createScriptedBackend({ snapshot: { opened: ok([PHOTO, ALBUM]) } });
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(backend.callsOf('startSend')).toEqual([[[PHOTO, ALBUM]]]);
  });

  it('holds Send while the send is starting', async () => {
    const backend = createScriptedBackend({ snapshot: { opened: ok([PHOTO]) } });
    const { user } = await renderApp(backend);
    backend.hold('startSend');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('holds the pickers while one is open, and keeps the focus on the button that opened it', async () => {
    const backend = createScriptedBackend();
    const { user } = await renderApp(backend);
    backend.hold('pickFolder');
    const folder = screen.getByRole('button', { name: 'Choose folder' });
    await user.click(folder);
    // A disabled button would have dropped it: the keyboard would start over from the page.
    expect(document.activeElement).toBe(folder);
    const files = screen.getByRole('button', { name: 'Choose files' });
    expect(files.getAttribute('aria-disabled')).toBe('true');
    await user.click(files);
    expect(backend.callsOf('pickFiles')).toEqual([]);
  });

  it('gives the focus to the next Remove button, and to the heading once nothing is left', async () => {
    const backend = createScriptedBackend();
    const { user } = await renderApp(backend);
    backend.respond('pickFiles', ok([PHOTO, { ...PHOTO, id: 'b', name: 'b.jpg' }]));
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    await user.click(screen.getByRole('button', { name: `Remove ${PHOTO.name}` }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove b.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Remove b.jpg' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Send files' }));
  });

  it('highlights while files are dragged over it, across its children', async () => {
    await renderApp();
    const zone = screen.getByTestId('drop-zone');
    const label = within(zone).getByText('Drop files or folders here');
    fireEvent.dragEnter(zone, filesDrag);
    fireEvent.dragEnter(label, filesDrag);
    fireEvent.dragLeave(zone, filesDrag);
    expect(zone.className).toContain('drop-zone--active');
    expect(within(zone).getByText('Drop to add')).toBeTruthy();
    fireEvent.dragLeave(label, filesDrag);
    expect(zone.className).not.toContain('drop-zone--active');
  });

  it('ignores a drag that carries no files', async () => {
    await renderApp();
    const zone = screen.getByTestId('drop-zone');
    fireEvent.dragEnter(zone, { dataTransfer: { types: ['text/plain'] } });
    expect(zone.className).not.toContain('drop-zone--active');
  });

  it('adds what is dropped on it', async () => {
    const backend = createScriptedBackend();
    await renderApp(backend);
    backend.respond('addDropped', ok([ALBUM]));
    const zone = screen.getByTestId('drop-zone');
    fireEvent.dragEnter(zone, filesDrag);
    fireEvent.drop(zone, filesDrag);
    expect(await screen.findByText('Album')).toBeTruthy();
    expect(zone.className).not.toContain('drop-zone--active');
    expect(backend.callsOf('addDropped')).toHaveLength(1);
  });

  it('says why a drop was refused', async () => {
    const backend = createScriptedBackend();
    await renderApp(backend);
    backend.respond(
      'addDropped',
      err('ERR_NOTHING_DROPPED', 'Only files and folders can be dropped here.'),
    );
    fireEvent.drop(screen.getByTestId('drop-zone'), filesDrag);
    expect(await screen.findByText('Only files and folders can be dropped here.')).toBeTruthy();
  });
});

describe('a text to send', () => {
  it('is still in its box after the send is cancelled, as chosen files are; a delivered one is not', async () => {
    const backend = createScriptedBackend();
    const { user } = await renderApp(backend);
    await user.type(screen.getByLabelText('Send a text'), 'meet at the north gate');
    await user.click(screen.getByRole('button', { name: 'Send text' }));
    expect(backend.callsOf('startSendText')).toEqual([['meet at the north gate']]);
    push(backend, {
      type: 'transfer',
      transfer: {
        phase: 'waiting-for-peer',
        direction: 'send',
        code: 'otter-plank',
        files: [{ name: 'message.txt', size: 22 }],
        totalBytes: 22,
      },
    });
    expect(screen.queryByLabelText('Send a text')).toBeNull();
    push(backend, { type: 'transfer', transfer: IDLE_TRANSFER });
    expect((screen.getByLabelText('Send a text') as HTMLTextAreaElement).value).toBe(
      'meet at the north gate',
    );
    push(backend, {
      type: 'transfer',
      transfer: {
        phase: 'done',
        direction: 'send',
        files: [{ name: 'message.txt', size: 22 }],
        totalBytes: 22,
      },
    });
    push(backend, { type: 'transfer', transfer: IDLE_TRANSFER });
    expect((screen.getByLabelText('Send a text') as HTMLTextAreaElement).value).toBe('');
  });
});
