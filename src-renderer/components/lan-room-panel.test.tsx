import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { err } from '../../src-shared/ipc/result';
import { push, renderApp } from '../testing/render-app';
import {
  createScriptedBackend,
  LAN_URL,
  TEST_SETTINGS,
  type ScriptedBackendOptions,
} from '../testing/scripted-backend';

async function openPanel(options: ScriptedBackendOptions = {}) {
  const backend = createScriptedBackend(options);
  const rendered = await renderApp(backend);
  await rendered.user.click(screen.getByRole('tab', { name: 'Settings' }));
  const lanSwitch = screen.getByRole('switch', { name: 'Host a LAN room' }) as HTMLButtonElement;
  return { ...rendered, lanSwitch };
}

const STUDIO = { name: 'Studio iMac', url: 'http://192.168.1.31:3001' };

describe('the LAN room panel', () => {
  it('hosts a room and shows its address and QR code', async () => {
    const { user, backend, lanSwitch } = await openPanel();
    expect(lanSwitch.getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByTestId('lan-url')).toBeNull();
    await user.click(lanSwitch);
    expect(backend.callsOf('setLanRoom')).toEqual([[true]]);
    expect(lanSwitch.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('lan-url').textContent).toBe(LAN_URL);
    expect(screen.getByRole('img', { name: 'QR code of the LAN room address' })).toBeTruthy();
  });

  it('serves the room over HTTPS when asked, and shows its certificate’s fingerprint', async () => {
    const { user, backend } = await openPanel();
    expect(screen.queryByTestId('lan-fingerprint')).toBeNull();
    const httpsBox = screen.getByRole('checkbox', { name: 'Serve the room over HTTPS' });
    expect((httpsBox as HTMLInputElement).checked).toBe(false);
    await user.click(httpsBox);
    expect(backend.callsOf('updateSettings')).toEqual([[{ lanRoomHttps: true }]]);
    expect((httpsBox as HTMLInputElement).checked).toBe(true);

    const fingerprint = `${'AB:'.repeat(31)}CD`;
    push(backend, {
      type: 'lan-room',
      lanRoom: { state: 'on', url: 'https://192.168.1.20:3001', fingerprint },
    });
    expect(screen.getByTestId('lan-url').textContent).toBe('https://192.168.1.20:3001');
    expect(screen.getByTestId('lan-fingerprint').textContent).toBe(fingerprint);
  });

  it('stops hosting', async () => {
    const { user, backend, lanSwitch } = await openPanel({
      snapshot: { lanRoom: { state: 'on', url: LAN_URL } },
    });
    await user.click(lanSwitch);
    expect(backend.callsOf('setLanRoom')).toEqual([[false]]);
    expect(lanSwitch.getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByTestId('lan-url')).toBeNull();
  });

  it('says it is starting and holds the switch meanwhile', async () => {
    const { backend, lanSwitch } = await openPanel();
    push(backend, { type: 'lan-room', lanRoom: { state: 'starting' } });
    expect(screen.getByText('Starting the room…')).toBeTruthy();
    expect(lanSwitch.getAttribute('aria-checked')).toBe('true');
    expect(lanSwitch.disabled).toBe(true);
  });

  it('says in one sentence why the room failed, and can try again', async () => {
    const { user, backend, lanSwitch } = await openPanel({
      snapshot: { lanRoom: { state: 'failed', message: 'port 3001 is already in use' } },
    });
    expect(screen.getByText('Port 3001 is already in use.')).toBeTruthy();
    expect(lanSwitch.getAttribute('aria-checked')).toBe('false');
    await user.click(lanSwitch);
    expect(backend.callsOf('setLanRoom')).toEqual([[true]]);
  });

  it('shows why the switch was refused', async () => {
    const backend = createScriptedBackend();
    backend.respond('setLanRoom', err('ERR_INTERNAL', 'the LAN room could not start'));
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await user.click(screen.getByRole('switch', { name: 'Host a LAN room' }));
    expect(screen.getByText('The LAN room could not start.')).toBeTruthy();
  });

  it('lists the rooms others announce and uses one as the server', async () => {
    const { user, backend } = await openPanel({ snapshot: { discoveredRooms: [STUDIO] } });
    const rooms = screen.getByRole('list', { name: 'Rooms on this network' });
    expect(within(rooms).getByText('Studio iMac')).toBeTruthy();
    expect(within(rooms).getByText(STUDIO.url)).toBeTruthy();
    await user.click(within(rooms).getByRole('button', { name: 'Use Studio iMac' }));
    expect(backend.callsOf('updateSettings')).toEqual([[{ serverUrl: STUDIO.url }]]);
    expect(within(rooms).getByText('In use')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Server URL' }) as HTMLInputElement).value).toBe(
      STUDIO.url,
    );
  });

  it('says when no other rooms are around, and follows rooms as they appear', async () => {
    const { backend } = await openPanel({
      snapshot: { settings: { ...TEST_SETTINGS, serverUrl: STUDIO.url } },
    });
    expect(screen.getByText('No other Ferry rooms found on this network.')).toBeTruthy();
    push(backend, { type: 'discovered-rooms', rooms: [STUDIO] });
    expect(screen.getByText('In use')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Use Studio iMac' })).toBeNull();
  });

  it('turns the room on from an update pushed by the app', async () => {
    const { backend, lanSwitch } = await openPanel();
    push(backend, { type: 'lan-room', lanRoom: { state: 'on', url: LAN_URL } });
    expect(lanSwitch.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('lan-url').textContent).toBe(LAN_URL);
  });
});
