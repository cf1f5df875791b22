import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { ALBUM, PHOTO } from '../testing/fixtures';
import { createScriptedBackend } from '../testing/scripted-backend';
import { createNoticeStore } from './notice-store';
import { createSelectionStore, selectionBytes, selectionFiles } from './selection-store';

function setUp() {
  const backend = createScriptedBackend();
  const notice = createNoticeStore();
  return { backend, notice, selection: createSelectionStore(backend, notice) };
}

describe('the send selection', () => {
  it('keeps each item once, in the order chosen', () => {
    const { selection } = setUp();
    selection.getState().add([PHOTO]);
    selection.getState().add([ALBUM, PHOTO, ALBUM]);
    expect(selection.getState().items).toEqual([PHOTO, ALBUM]);
  });

  it('removes an item and clears everything', () => {
    const { selection } = setUp();
    selection.getState().add([PHOTO, ALBUM]);
    selection.getState().remove(PHOTO.id);
    expect(selection.getState().items).toEqual([ALBUM]);
    selection.getState().clear();
    expect(selection.getState().items).toEqual([]);
  });

  it('totals bytes and files across files and folders', () => {
    expect(selectionBytes([PHOTO, ALBUM])).toBe(PHOTO.size + ALBUM.size);
    expect(selectionFiles([PHOTO, ALBUM])).toBe(13);
    expect(selectionBytes([])).toBe(0);
  });

  it('adds what a picker returns and waits while it is open', async () => {
    const { backend, selection } = setUp();
    const release = backend.hold('pickFolder');
    const picking = selection.getState().pickFolder();
    expect(selection.getState().pending).toBe(true);
    release(ok([ALBUM]));
    await picking;
    expect(selection.getState()).toMatchObject({ pending: false, items: [ALBUM] });
  });

  it('adds what was dropped', async () => {
    const { backend, selection } = setUp();
    backend.respond('addDropped', ok([PHOTO]));
    await selection.getState().addDropped({ files: [] } as unknown as DataTransfer);
    expect(selection.getState().items).toEqual([PHOTO]);
  });

  it('shows why a pick or a drop failed and keeps the selection', async () => {
    const { backend, notice, selection } = setUp();
    selection.getState().add([PHOTO]);
    backend.respond('pickFiles', err('ERR_INTERNAL', 'Something went wrong inside Ferry'));
    await selection.getState().pickFiles();
    expect(notice.getState().notice).toEqual({
      code: 'ERR_INTERNAL',
      message: 'Something went wrong inside Ferry',
    });
    expect(selection.getState().items).toEqual([PHOTO]);
  });
});
