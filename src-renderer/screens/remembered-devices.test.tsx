import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import type { PeerCheck, TransferView } from '../../src-shared/transfer/transfer-view';
import { BO_PRINT, CY_PRINT } from '../testing/fixtures';
import { push, renderApp } from '../testing/render-app';
import {
  createScriptedBackend,
  TEST_DEVICES,
  testDevice,
  type ScriptedBackendOptions,
} from '../testing/scripted-backend';

const WORDS: PeerCheck = { kind: 'words', words: 'plum otter cask' };

function doneWith(check: PeerCheck, announcedName?: string): TransferView {
  return {
    phase: 'done',
    direction: 'receive',
    files: [{ name: 'photo.jpg', size: 2048 }],
    totalBytes: 2048,
    peer: {
      fingerprint: BO_PRINT,
      check,
      ...(announcedName === undefined ? {} : { announcedName }),
    },
  };
}

function finished(transfer: TransferView, options: ScriptedBackendOptions = {}) {
  return renderApp(
    createScriptedBackend({ ...options, snapshot: { ...options.snapshot, transfer } }),
  );
}

const nameField = (label: string) =>
  screen.getByRole('textbox', { name: label }) as HTMLInputElement;
const IF_WORDS = 'If the words matched, remember this device as';

describe('remembering the other device when a transfer is done', () => {
  it('asks only for a device the words verified, suggesting the name it announced', async () => {
    const { user, backend } = await finished(doneWith(WORDS, 'Bo laptop'));
    const field = nameField(IF_WORDS);
    expect(field.value).toBe('Bo laptop');
    await user.clear(field);
    await user.type(field, 'Bo’s laptop{Enter}');
    expect(backend.callsOf('rememberPeer')).toEqual([['Bo’s laptop']]);
    expect(screen.getByText('Remembered as “Bo’s laptop”.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: IF_WORDS })).toBeNull();
    // The person is not left on a button that went away.
    expect(document.activeElement).toBe(screen.getByText('Remembered as “Bo’s laptop”.'));
  });

  it('starts empty when the other device announced no name, and says plainly when the link verified it', async () => {
    const { user, backend } = await finished(doneWith({ kind: 'link' }));
    const field = nameField('Remember this device as');
    expect(field.value).toBe('');
    await user.type(field, 'Studio');
    await user.click(screen.getByRole('button', { name: 'Remember' }));
    expect(backend.callsOf('rememberPeer')).toEqual([['Studio']]);
    expect(screen.getByText('Remembered as “Studio”.')).toBeTruthy();
  });

  it('shows a refusal beside the form and keeps what was typed', async () => {
    const backend = createScriptedBackend({
      snapshot: {
        transfer: doneWith(WORDS),
        devices: { ...TEST_DEVICES, remembered: [testDevice('Studio', CY_PRINT)] },
      },
    });
    const { user } = await renderApp(backend);
    const field = nameField(IF_WORDS);
    await user.type(field, 'studio');
    await user.click(screen.getByRole('button', { name: 'Remember' }));
    expect(screen.getByRole('alert').textContent).toBe('Another device is remembered as “Studio”.');
    expect(field.value).toBe('studio');
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Remember' }));
    expect(screen.getByRole('alert').textContent).toBe('A device needs a name.');
  });

  it('names a device remembered already instead of asking again', async () => {
    await finished(doneWith({ kind: 'device', name: 'Bo laptop', fingerprint: BO_PRINT }));
    expect(screen.getByText('Remembered device “Bo laptop”')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remember' })).toBeNull();
  });

  it('offers nothing for an unverified device or a transfer without a peer', async () => {
    await finished(doneWith({ kind: 'unverified' }));
    expect(screen.getByTestId('transfer-done')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remember' })).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

async function openSettings(options: ScriptedBackendOptions = {}) {
  const rendered = await renderApp(createScriptedBackend(options));
  await rendered.user.click(screen.getByRole('tab', { name: 'Settings' }));
  return rendered;
}

const TWO_DEVICES = {
  ...TEST_DEVICES,
  remembered: [
    testDevice('Bo laptop', BO_PRINT, Date.UTC(2026, 2, 3, 12)),
    testDevice('Cy phone', CY_PRINT),
  ],
};
const device = (name: string) => screen.getByRole('listitem', { name });
const AUTO = 'Accept files from this device without asking';

describe('the remembered devices in Settings', () => {
  it('says there are none yet', async () => {
    await openSettings();
    const panel = screen.getByRole('region', { name: 'Remembered devices' });
    expect(within(panel).getByText(/^No devices yet\./)).toBeTruthy();
    expect(within(panel).queryByRole('list')).toBeNull();
  });

  it('lists each device with when it was remembered', async () => {
    await openSettings({ snapshot: { devices: TWO_DEVICES } });
    const list = screen.getByRole('list', { name: 'Remembered devices' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.device-name')?.textContent),
    ).toEqual(['Bo laptop', 'Cy phone']);
    const date = new Date(Date.UTC(2026, 2, 3, 12)).toLocaleDateString(undefined, {
      dateStyle: 'long',
    });
    expect(within(device('Bo laptop')).getByText(`Remembered on ${date}`)).toBeTruthy();
    expect(within(device('Cy phone')).queryByText(/^Remembered on/)).toBeNull();
  });

  it('shows a device remembered while Settings is open', async () => {
    const { backend } = await openSettings();
    push(backend, { type: 'devices', devices: TWO_DEVICES });
    expect(device('Cy phone')).toBeTruthy();
  });

  it('renames a device in place', async () => {
    const { user, backend } = await openSettings({ snapshot: { devices: TWO_DEVICES } });
    await user.click(screen.getByRole('button', { name: 'Rename Bo laptop' }));
    const field = screen.getByRole('textbox', { name: 'New name for Bo laptop' });
    expect(document.activeElement).toBe(field);
    await user.clear(field);
    await user.type(field, 'Bo desktop');
    await user.click(within(device('Bo laptop')).getByRole('button', { name: 'Save' }));
    expect(backend.callsOf('renameDevice')).toEqual([[BO_PRINT, 'Bo desktop']]);
    expect(device('Bo desktop')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^New name/ })).toBeNull();
  });

  it('keeps the field open with the reason when a new name is refused, and Escape leaves it', async () => {
    const { user } = await openSettings({ snapshot: { devices: TWO_DEVICES } });
    await user.click(screen.getByRole('button', { name: 'Rename Bo laptop' }));
    const field = screen.getByRole('textbox', { name: 'New name for Bo laptop' });
    await user.clear(field);
    await user.type(field, 'cy phone{Enter}');
    expect(within(device('Bo laptop')).getByRole('alert').textContent).toBe(
      'Another device is remembered as “Cy phone”.',
    );
    expect((field as HTMLInputElement).value).toBe('cy phone');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: /^New name/ })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Bo laptop' }));
  });

  it('forgets a device', async () => {
    const { user, backend } = await openSettings({ snapshot: { devices: TWO_DEVICES } });
    await user.click(screen.getByRole('button', { name: 'Forget Cy phone' }));
    expect(backend.callsOf('forgetDevice')).toEqual([[CY_PRINT]]);
    expect(screen.queryByRole('listitem', { name: 'Cy phone' })).toBeNull();
    expect(device('Bo laptop')).toBeTruthy();
  });

  it('shows why a device could not be forgotten', async () => {
    const backend = createScriptedBackend({ snapshot: { devices: TWO_DEVICES } });
    backend.respond('forgetDevice', err('ERR_DISK', 'the device list could not be written'));
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await user.click(screen.getByRole('button', { name: 'Forget Cy phone' }));
    expect(within(device('Cy phone')).getByRole('alert').textContent).toBe(
      'The device list could not be written.',
    );
  });

  it('lets a device’s files in without asking where the backend can', async () => {
    const { user, backend } = await openSettings({
      capabilities: { autoAcceptFromDevices: true },
      snapshot: { devices: TWO_DEVICES },
    });
    const box = within(device('Cy phone')).getByRole('checkbox', {
      name: AUTO,
    }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(
      within(device('Cy phone')).getByText('Its files then go straight to the download folder.'),
    ).toBeTruthy();
    await user.click(box);
    expect(backend.callsOf('setDeviceAutoAccept')).toEqual([[CY_PRINT, true]]);
    expect(
      (within(device('Cy phone')).getByRole('checkbox', { name: AUTO }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    expect(
      (within(device('Bo laptop')).getByRole('checkbox', { name: AUTO }) as HTMLInputElement)
        .checked,
    ).toBe(false);
  });

  it('has no auto-accept box where the backend cannot accept without asking', async () => {
    await openSettings({
      capabilities: { autoAcceptFromDevices: false },
      snapshot: { devices: TWO_DEVICES },
    });
    expect(device('Bo laptop')).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: AUTO })).toBeNull();
  });
});

describe('the remembered devices in the web client', () => {
  it('can be set to save without asking, into the folder chosen on the page only', async () => {
    const backend = createScriptedBackend({
      surface: 'browser',
      capabilities: { settings: false, autoAcceptFromDevices: true },
      snapshot: { devices: TWO_DEVICES },
    });
    const { user } = await renderApp(backend);
    await user.click(
      within(screen.getByTestId('web-devices')).getByText('Remembered devices', {
        selector: 'summary',
      }),
    );
    const box = within(device('Cy phone')).getByRole('checkbox', { name: AUTO });
    expect(box.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      within(device('Cy phone')).getByText(
        'Its files then go straight into the folder you chose on this page; until you choose one, you are asked.',
      ),
    ).toBeTruthy();
    await user.click(box);
    expect(backend.callsOf('setDeviceAutoAccept')).toEqual([[CY_PRINT, true]]);
  });

  it('are behind a disclosure, since the browser has no settings screen', async () => {
    const backend = createScriptedBackend({
      surface: 'browser',
      capabilities: { settings: false, autoAcceptFromDevices: false },
      snapshot: { devices: TWO_DEVICES },
    });
    backend.respond(
      'forgetDevice',
      ok({ ...TEST_DEVICES, remembered: [TWO_DEVICES.remembered[0]] }),
    );
    const { user } = await renderApp(backend);
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull();
    const disclosure = screen.getByTestId('web-devices') as HTMLDetailsElement;
    expect(disclosure.open).toBe(false);
    await user.click(within(disclosure).getByText('Remembered devices', { selector: 'summary' }));
    expect(disclosure.open).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Forget Cy phone' }));
    expect(screen.queryByRole('listitem', { name: 'Cy phone' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: AUTO })).toBeNull();
  });
});
