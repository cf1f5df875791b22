import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/ipc/result';
import { CODE, PHOTO, WAITING_FOR_PEER } from '../testing/fixtures';
import { push, renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';
import { App } from './app';

describe('the app window', () => {
  it('says it is starting until the backend answers, then shows the send screen', async () => {
    render(<App backend={createScriptedBackend()} />);
    expect(screen.getByText('Starting Ferry…')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Send files' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Send' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows why it could not start', async () => {
    render(
      <App
        backend={createScriptedBackend({
          snapshotResult: err(
            'ERR_INTERNAL',
            'Something went wrong inside Ferry; see its log for details.',
          ),
        })}
      />,
    );
    expect(
      await screen.findByText('Something went wrong inside Ferry; see its log for details.'),
    ).toBeTruthy();
  });

  it('opens Receive with the code from a receive link', async () => {
    await renderApp(createScriptedBackend(), `#receive=${CODE}`);
    expect(screen.getByRole('tab', { name: 'Receive' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByRole('combobox', { name: 'Code' }) as HTMLInputElement).value).toBe(CODE);
  });

  it('receives with the secret link’s key only while the link’s code is the one typed', async () => {
    const key = 'q83vEjRWeJCrze8SNFZ4kA';
    const backend = createScriptedBackend();
    const { user } = await renderApp(backend, `#receive=${CODE}&key=${key}`);
    expect((screen.getByRole('combobox', { name: 'Code' }) as HTMLInputElement).value).toBe(CODE);
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    expect(backend.callsOf('startReceive')).toEqual([[CODE, key]]);
  });

  it('opens nothing from a link whose key is damaged', async () => {
    await renderApp(createScriptedBackend(), `#receive=${CODE}&key=damaged`);
    expect(screen.getByRole('tab', { name: 'Receive' }).getAttribute('aria-selected')).toBe(
      'false',
    );
  });

  it('moves between tabs with the arrow keys, Home and End', async () => {
    const { user } = await renderApp();
    await user.click(screen.getByRole('tab', { name: 'Send' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('heading', { name: 'Receive files' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Receive' }));
    await user.keyboard('{End}');
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('heading', { name: 'Send files' })).toBeTruthy();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy();
    await user.keyboard('{Home}');
    expect(screen.getByRole('heading', { name: 'Send files' })).toBeTruthy();
  });

  it('keeps the other direction closed while a transfer runs', async () => {
    const backend = createScriptedBackend();
    await renderApp(backend);
    push(backend, { type: 'transfer', transfer: WAITING_FOR_PEER });
    expect((screen.getByRole('tab', { name: 'Receive' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('tab', { name: 'Settings' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('leaves a finished transfer when the person switches direction', async () => {
    const backend = createScriptedBackend({
      snapshot: { transfer: { phase: 'done', direction: 'send', files: [], totalBytes: 0 } },
    });
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('tab', { name: 'Receive' }));
    expect(backend.callsOf('dismiss')).toHaveLength(1);
  });

  it('has no settings tab on a backend without settings', async () => {
    await renderApp(createScriptedBackend({ capabilities: { settings: false } }));
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull();
  });

  it('shows a failed action until it is dismissed or the person moves on', async () => {
    const backend = createScriptedBackend();
    backend.respond('pickFiles', err('ERR_INTERNAL', 'the file dialog could not open'));
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    const message = screen.getByText('The file dialog could not open.');
    expect(message.closest('[role="status"]')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('The file dialog could not open.')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    await user.click(screen.getByRole('tab', { name: 'Receive' }));
    expect(screen.queryByText('The file dialog could not open.')).toBeNull();
  });

  it('clears a stale notice when the person starts something new', async () => {
    const backend = createScriptedBackend();
    backend.respond('pickFiles', err('ERR_INTERNAL', 'the file dialog could not open'));
    const { user } = await renderApp(backend);
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    expect(screen.getByText('The file dialog could not open.')).toBeTruthy();

    backend.respond('pickFiles', ok([PHOTO]));
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    expect(screen.queryByText('The file dialog could not open.')).toBeNull();

    backend.respond('pickFolder', err('ERR_INTERNAL', 'the folder dialog could not open'));
    await user.click(screen.getByRole('button', { name: 'Choose folder' }));
    expect(screen.getByText('The folder dialog could not open.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.queryByText('The folder dialog could not open.')).toBeNull();
  });

  it("shows a transfer's warning, which does not stop it, until it is dismissed", async () => {
    const backend = createScriptedBackend();
    const { user } = await renderApp(backend);
    push(backend, { type: 'warning', message: 'Photos/home is a link and was not sent' });
    const message = screen.getByText('Photos/home is a link and was not sent.');
    expect(message.closest('[role="status"]')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Photos/home is a link and was not sent.')).toBeNull();
  });

  it('keeps a stray drop from replacing the window', async () => {
    await renderApp();
    const drop = new Event('drop', { cancelable: true });
    window.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
  });
});
