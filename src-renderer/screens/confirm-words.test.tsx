import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { CODE, OFFER } from '../testing/fixtures';
import { push, renderApp } from '../testing/render-app';
import { createScriptedBackend, type ScriptedBackendOptions } from '../testing/scripted-backend';

// "Confirm the words before any file moves" (docs/protocol.md, "Verification words"): the
// backend holds the transfer and marks the view `wordsAsked`; the screen asks the person.

function showing(transfer: TransferView, options: ScriptedBackendOptions = {}) {
  return renderApp(
    createScriptedBackend({ ...options, snapshot: { ...options.snapshot, transfer } }),
  );
}

const WAITING: TransferView = {
  phase: 'waiting-for-acceptance',
  direction: 'send',
  code: CODE,
  peerCheck: { kind: 'words', words: 'plum otter cask' },
};

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('a sender asked whether the words match', () => {
  it('shows the words and lets the files go only on "The words match"', async () => {
    const { user, backend } = await showing({ ...WAITING, wordsAsked: true });
    expect(screen.getByTestId('peer-check').textContent).toContain('plum otter cask');
    await user.click(button('The words match'));
    expect(backend.callsOf('answerWords')).toEqual([[true]]);
  });

  it('stops the transfer on "They don\'t match"', async () => {
    const { user, backend } = await showing({ ...WAITING, wordsAsked: true });
    await user.click(button('They don’t match'));
    expect(backend.callsOf('answerWords')).toEqual([[false]]);
  });

  it('asks nothing where the backend does not', async () => {
    await showing(WAITING);
    expect(screen.getByTestId('peer-check').textContent).toContain('plum otter cask');
    expect(screen.queryByTestId('words-match')).toBeNull();
  });
});

describe('a receiver asked whether the words match', () => {
  it('holds Accept until the person said the words match', async () => {
    if (OFFER.phase !== 'awaiting-acceptance') throw new Error('the fixture is an offer');
    const { user, backend } = await showing({ ...OFFER, wordsAsked: true });
    expect(button('Accept').disabled).toBe(true);
    expect(button('Decline').disabled).toBe(false);
    await user.click(button('The words match'));
    expect(backend.callsOf('answerWords')).toEqual([[true]]);

    // The backend took the answer: the same offer, no longer asking.
    push(backend, { type: 'transfer', transfer: OFFER });
    expect(screen.queryByTestId('words-match')).toBeNull();
    expect(button('Accept').disabled).toBe(false);
    await user.click(button('Accept'));
    expect(backend.callsOf('answerOffer')).toEqual([[true, undefined]]);
  });

  it('holds Accept for a text message too', async () => {
    if (OFFER.phase !== 'awaiting-acceptance') throw new Error('the fixture is an offer');
    await showing({ ...OFFER, offer: { ...OFFER.offer, textMessage: true }, wordsAsked: true });
    expect(button('Accept').disabled).toBe(true);
    expect(screen.getByTestId('words-match')).toBeTruthy();
  });
});

describe('the setting', () => {
  it('is in the desktop Settings, with the quick-save cap beside it', async () => {
    const { user, backend } = await renderApp(createScriptedBackend());
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await user.click(screen.getByTestId('confirm-words-setting'));
    expect(backend.callsOf('updateSettings')).toEqual([[{ confirmWords: true }]]);

    const cap = screen.getByRole('textbox', { name: 'Largest batch accepted without asking (MB)' });
    await user.clear(cap);
    await user.type(cap, '300');
    await user.click(button('Save limit'));
    expect(backend.callsOf('updateSettings').at(-1)).toEqual([{ autoAcceptMaxBytes: 300_000_000 }]);

    await user.clear(cap);
    await user.type(cap, 'lots');
    await user.click(button('Save limit'));
    expect(screen.getByText('Enter a whole number of MB.')).toBeTruthy();
    expect(backend.callsOf('updateSettings')).toHaveLength(2);
  });

  it('is one click away in the web client, which has no cap: it never accepts unasked', async () => {
    const { user, backend } = await renderApp(
      createScriptedBackend({
        surface: 'browser',
        capabilities: { settings: false, autoAcceptFromDevices: false },
      }),
    );
    const settings = screen.getByTestId('web-settings');
    await user.click(within(settings).getByText('Settings'));
    await user.click(within(settings).getByTestId('confirm-words-setting'));
    expect(backend.callsOf('updateSettings')).toEqual([[{ confirmWords: true }]]);
    expect(screen.queryByTestId('auto-accept-cap')).toBeNull();
  });
});
