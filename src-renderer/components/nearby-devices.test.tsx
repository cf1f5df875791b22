import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok } from '../../src-shared/ipc/result';
import type { NearbyView } from '../../src-shared/app/nearby-core';
import { ALBUM, PHOTO } from '../testing/fixtures';
import { push, renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

const LAPTOP = {
  key: 'room:LP0001',
  name: "Ana's laptop",
  kind: 'desktop',
  shortId: 'LP0001',
  via: 'room',
  online: true,
} as const;
const PHONE = {
  key: 'pair:AA:BB',
  name: 'Phone',
  kind: 'remembered',
  via: 'pair',
  online: true,
} as const;
const ROOM: NearbyView = { devices: [LAPTOP, PHONE], inRoom: true };

const tiles = (): HTMLElement[] => screen.getAllByTestId('nearby-device');

describe('the Nearby list on the send screen', () => {
  it('shows nothing where no roster is kept and nobody is online', async () => {
    await renderApp(createScriptedBackend());
    expect(screen.queryByTestId('nearby')).toBeNull();
  });

  it('says so in one line when the room holds nobody else', async () => {
    await renderApp(createScriptedBackend({ snapshot: { nearby: { devices: [], inRoom: true } } }));
    const nearby = screen.getByTestId('nearby');
    expect(within(nearby).getByText('Nobody else is here yet.')).toBeTruthy();
    expect(within(nearby).queryAllByTestId('nearby-device')).toEqual([]);
  });

  it('lists each device with its name, kind and short id, following the backend live', async () => {
    const backend = createScriptedBackend({ snapshot: { nearby: ROOM } });
    await renderApp(backend);
    expect(tiles().map((tile) => tile.textContent)).toEqual([
      "Ana's laptopDesktop app · LP0001",
      'PhoneRemembered device',
    ]);
    push(backend, {
      type: 'nearby',
      nearby: { devices: [{ ...LAPTOP, online: false }], inRoom: true },
    });
    expect(await screen.findByText('Desktop app · LP0001 · gone')).toBeTruthy();
    expect(tiles().map((tile) => tile.dataset.online)).toEqual(['false']);
  });

  it('sends the chosen files to the device chosen, at once', async () => {
    const backend = createScriptedBackend({
      snapshot: { nearby: ROOM, opened: ok([PHOTO, ALBUM]) },
    });
    const { user } = await renderApp(backend);
    await user.click(tiles()[1]!);
    expect(backend.callsOf('startSendNearby')).toEqual([['pair:AA:BB', { items: [PHOTO, ALBUM] }]]);
  });

  it('sends the typed text when no file is chosen', async () => {
    const backend = createScriptedBackend({ snapshot: { nearby: ROOM } });
    const { user } = await renderApp(backend);
    await user.type(screen.getByLabelText('Send a text'), 'hello');
    await user.click(tiles()[0]!);
    expect(backend.callsOf('startSendNearby')).toEqual([['room:LP0001', { text: 'hello' }]]);
  });

  it('sends nothing with nothing chosen, nor to a device that left', async () => {
    const gone = { devices: [{ ...LAPTOP, online: false }], inRoom: true };
    const backend = createScriptedBackend({ snapshot: { nearby: ROOM } });
    const { user } = await renderApp(backend);
    await user.click(tiles()[0]!);
    push(backend, { type: 'nearby', nearby: gone });
    push(backend, { type: 'opened', opened: ok([PHOTO]) });
    await screen.findByText('photo.jpg');
    await user.click(tiles()[0]!);
    expect(backend.callsOf('startSendNearby')).toEqual([]);
  });

  it('sends files dropped on a tile to that device', async () => {
    const backend = createScriptedBackend({ snapshot: { nearby: ROOM } });
    await renderApp(backend);
    backend.respond('addDropped', ok([PHOTO]));
    const dataTransfer = { types: ['Files'], files: [], dropEffect: 'none' };
    fireEvent.dragOver(tiles()[0]!, { dataTransfer });
    fireEvent.drop(tiles()[0]!, { dataTransfer });
    await expect
      .poll(() => backend.callsOf('startSendNearby'))
      .toEqual([['room:LP0001', { items: [PHOTO] }]]);
  });
});
