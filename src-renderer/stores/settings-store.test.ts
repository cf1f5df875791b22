import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { createScriptedBackend, TEST_SETTINGS } from '../testing/scripted-backend';
import { createNoticeStore } from './notice-store';
import { createSettingsStore } from './settings-store';

function setUp() {
  const backend = createScriptedBackend();
  const notice = createNoticeStore();
  const settings = createSettingsStore(backend, notice);
  settings.getState().apply(TEST_SETTINGS);
  return { backend, notice, settings };
}

describe('the settings store', () => {
  it('keeps what the backend saved', async () => {
    const { settings } = setUp();
    expect(await settings.getState().update({ reportStats: false })).toBe(true);
    expect(settings.getState().settings).toEqual({ ...TEST_SETTINGS, reportStats: false });
  });

  it('keeps the old value and shows why when the backend refuses', async () => {
    const { backend, notice, settings } = setUp();
    backend.respond(
      'updateSettings',
      err('ERR_BAD_REQUEST', 'The updateSettings request was malformed.'),
    );
    expect(await settings.getState().update({ serverUrl: 'https://other.example' })).toBe(false);
    expect(settings.getState().settings).toEqual(TEST_SETTINGS);
    expect(notice.getState().notice?.code).toBe('ERR_BAD_REQUEST');
  });

  it('saves a newly chosen download folder, and nothing when the picker is closed', async () => {
    const { backend, settings } = setUp();
    await settings.getState().chooseDownloadFolder();
    expect(backend.callsOf('updateSettings')).toEqual([]);
    backend.respond('chooseDownloadFolder', ok({ ...TEST_SETTINGS, downloadFolder: '/media/usb' }));
    await settings.getState().chooseDownloadFolder();
    expect(backend.callsOf('updateSettings')).toEqual([]);
    expect(settings.getState().settings?.downloadFolder).toBe('/media/usb');
  });
});
