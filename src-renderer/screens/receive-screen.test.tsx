import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

async function openReceive(backend = createScriptedBackend()) {
  const rendered = await renderApp(backend);
  await rendered.user.click(screen.getByRole('tab', { name: 'Receive' }));
  const field = screen.getByRole('combobox', { name: 'Code' }) as HTMLInputElement;
  const receive = screen.getByRole('button', { name: 'Receive' }) as HTMLButtonElement;
  return { ...rendered, field, receive };
}

const options = () =>
  within(screen.getByRole('listbox', { name: 'Word suggestions' }))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the receive code field', () => {
  it('is a combobox labelled Code, and Receive waits for a whole code', async () => {
    const { user, field, receive } = await openReceive();
    expect(field.getAttribute('aria-autocomplete')).toBe('list');
    expect(receive.disabled).toBe(true);
    await user.type(field, 'acid-otter');
    expect(receive.disabled).toBe(true);
    await user.type(field, '-plank');
    expect(receive.disabled).toBe(false);
  });

  it('accepts any case and stray spaces, and sends the canonical code', async () => {
    const { user, field, receive, backend } = await openReceive();
    await user.type(field, '  Acid  OTTER plank ');
    expect(receive.disabled).toBe(false);
    await user.click(receive);
    expect(backend.callsOf('startReceive')).toEqual([['acid-otter-plank']]);
  });

  it('takes a pasted receive link as its code and key, and a typed code alone as a code', async () => {
    const key = 'q83vEjRWeJCrze8SNFZ4kA';
    const { user, field, receive, backend } = await openReceive();
    await user.click(field);
    await user.paste(`https://ferry.example/#receive=acid-otter-plank&key=${key}`);
    expect(field.value).toBe('acid-otter-plank');
    await user.click(receive);
    expect(backend.callsOf('startReceive')).toEqual([['acid-otter-plank', key]]);
    // Typed over, the code is no longer the link's: its key does not go with another code.
    await user.clear(field);
    await user.type(field, 'acid-otter-plaza');
    await user.click(receive);
    expect(backend.callsOf('startReceive').at(-1)).toEqual(['acid-otter-plaza']);
  });

  it('receives on Enter when no suggestion is chosen', async () => {
    const { user, field, backend } = await openReceive();
    await user.type(field, 'acid-otter-plank{Enter}');
    expect(backend.callsOf('startReceive')).toEqual([['acid-otter-plank']]);
  });

  it('does not receive on Enter while the code is incomplete', async () => {
    const { user, field, backend } = await openReceive();
    await user.type(field, 'acid-otter{Enter}');
    expect(backend.callsOf('startReceive')).toEqual([]);
  });

  it('suggests words for the one being typed', async () => {
    const { user, field } = await openReceive();
    expect(field.getAttribute('aria-expanded')).toBe('false');
    await user.type(field, 'ac');
    expect(field.getAttribute('aria-expanded')).toBe('true');
    expect(options()).toEqual(['acid', 'acorn', 'acre', 'acts']);
    await user.type(field, 'id-pla');
    expect(options()).toEqual(['plank', 'plant', 'plaza']);
  });

  it('offers nothing right after a separator or for a finished word', async () => {
    const { user, field } = await openReceive();
    await user.type(field, 'acid-');
    expect(field.getAttribute('aria-expanded')).toBe('false');
    await user.clear(field);
    await user.type(field, 'otter');
    expect(field.getAttribute('aria-expanded')).toBe('false');
  });

  it('chooses with the arrow keys and completes with Enter', async () => {
    const { user, field } = await openReceive();
    await user.type(field, 'ac');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const chosen = screen.getByRole('option', { name: 'acorn' });
    expect(chosen.getAttribute('aria-selected')).toBe('true');
    expect(field.getAttribute('aria-activedescendant')).toBe(chosen.id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('option', { name: 'acts' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(field.value).toBe('acid-');
  });

  it('completes the first suggestion with Tab, tidying what was typed', async () => {
    const { user, field } = await openReceive();
    await user.type(field, 'ACID  OT');
    await user.keyboard('{Tab}');
    expect(field.value).toBe('acid-otter-');
    expect(document.activeElement).toBe(field);
    await user.type(field, 'plan');
    await user.keyboard('{Tab}');
    expect(field.value).toBe('acid-otter-plank');
    await user.keyboard('{Tab}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Receive' }));
  });

  it('closes the suggestions with Escape and opens them again with the down arrow', async () => {
    const { user, field } = await openReceive();
    await user.type(field, 'pla');
    await user.keyboard('{Escape}');
    expect(field.getAttribute('aria-expanded')).toBe('false');
    expect(field.value).toBe('pla');
    await user.keyboard('{ArrowDown}');
    expect(options()).toEqual(['plank', 'plant', 'plaza']);
  });

  it('completes a suggestion clicked with the mouse', async () => {
    const { user, field } = await openReceive();
    await user.type(field, 'acid-otter-plaz');
    await user.click(screen.getByRole('option', { name: 'plaza' }));
    expect(field.value).toBe('acid-otter-plaza');
    expect(document.activeElement).toBe(field);
  });

  it('warns about a word that is not in the list, but still lets the code through', async () => {
    const { user, field, receive } = await openReceive();
    expect(screen.getByText(/Capitals and spaces do not matter/)).toBeTruthy();
    await user.type(field, 'acid-otter-plonk');
    expect(
      screen.getByText('One of these words is not in Ferry’s word list; check the spelling.'),
    ).toBeTruthy();
    expect(receive.disabled).toBe(false);
  });

  it('holds Receive while the receive is starting', async () => {
    const backend = createScriptedBackend();
    const { user, field, receive } = await openReceive(backend);
    backend.hold('startReceive');
    await user.type(field, 'acid-otter-plank');
    await user.click(receive);
    expect(receive.disabled).toBe(true);
  });
});
