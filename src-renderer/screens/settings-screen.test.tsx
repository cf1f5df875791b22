import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { renderApp } from '../testing/render-app';
import { createScriptedBackend, TEST_SETTINGS } from '../testing/scripted-backend';

async function openSettings(backend = createScriptedBackend()) {
  const rendered = await renderApp(backend);
  await rendered.user.click(screen.getByRole('tab', { name: 'Settings' }));
  return rendered;
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
const REPORT = "Report transfer sizes to the server's anonymous counter";

describe('the settings screen', () => {
  it('shows the current settings, reporting on by default', async () => {
    await openSettings();
    expect((screen.getByRole('textbox', { name: 'Server URL' }) as HTMLInputElement).value).toBe(
      TEST_SETTINGS.serverUrl,
    );
    const folder = screen.getByRole('group', { name: 'Download folder' });
    expect(within(folder).getByText('/home/ana/Downloads')).toBeTruthy();
    expect(checkbox(REPORT).checked).toBe(true);
    // Accepting without asking is a remembered device's setting now, never everyone's.
    expect(screen.queryByRole('checkbox', { name: 'Accept transfers without asking' })).toBeNull();
  });

  it('saves a new server address', async () => {
    const { user, backend } = await openSettings();
    const field = screen.getByRole('textbox', { name: 'Server URL' });
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await user.clear(field);
    await user.type(field, ' http://192.168.1.20:3001 {Enter}');
    expect(backend.callsOf('updateSettings')).toEqual([
      [{ serverUrl: 'http://192.168.1.20:3001' }],
    ]);
    expect(screen.getByText('Saved.')).toBeTruthy();
  });

  it('refuses an address that is not http or https, and says why', async () => {
    const { user, backend } = await openSettings();
    const field = screen.getByRole('textbox', { name: 'Server URL' });
    await user.clear(field);
    await user.type(field, 'ferry.example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter an address that starts with http:// or https://.')).toBeTruthy();
    expect(backend.callsOf('updateSettings')).toEqual([]);
  });

  it('keeps what was typed and shows the refusal when the backend will not save it', async () => {
    const backend = createScriptedBackend();
    backend.respond('updateSettings', err('ERR_DISK', 'the settings file could not be written'));
    const { user } = await openSettings(backend);
    const field = screen.getByRole('textbox', { name: 'Server URL' }) as HTMLInputElement;
    await user.clear(field);
    await user.type(field, 'https://other.example{Enter}');
    expect(field.value).toBe('https://other.example');
    expect(screen.getByText('The settings file could not be written.')).toBeTruthy();
    expect(screen.queryByText('Saved.')).toBeNull();
  });

  it('changes the download folder', async () => {
    const backend = createScriptedBackend();
    backend.respond('chooseDownloadFolder', ok({ ...TEST_SETTINGS, downloadFolder: '/media/usb' }));
    const { user } = await openSettings(backend);
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(
      within(screen.getByRole('group', { name: 'Download folder' })).getByText('/media/usb'),
    ).toBeTruthy();
  });

  it('toggles reporting', async () => {
    const { user, backend } = await openSettings();
    await user.click(checkbox(REPORT));
    expect(backend.callsOf('updateSettings')).toEqual([[{ reportStats: false }]]);
    expect(checkbox(REPORT).checked).toBe(false);
  });

  it('leaves a box as it was when the change is refused', async () => {
    const backend = createScriptedBackend();
    backend.respond('updateSettings', err('ERR_DISK', 'the settings file could not be written'));
    const { user } = await openSettings(backend);
    await user.click(checkbox(REPORT));
    expect(checkbox(REPORT).checked).toBe(true);
    expect(screen.getByText('The settings file could not be written.')).toBeTruthy();
  });

  it('has no folder picker or LAN room where the backend cannot do them', async () => {
    await openSettings(
      createScriptedBackend({ capabilities: { chooseDestination: false, lanRoom: false } }),
    );
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Host a LAN room' })).toBeNull();
  });
});
