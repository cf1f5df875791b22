import { afterEach, describe, expect, it } from 'vitest';
import { copyText } from './copy-text';

/** What the page's clipboard API does, where it has one. */
function clipboardThat(writeText: ((text: string) => Promise<void>) | undefined): void {
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: writeText === undefined ? undefined : { writeText },
  });
}

/**
 * What `execCommand('copy')` answers; each call records the text that was selected and which
 * element had the focus at that moment, as a browser would copy the selection.
 */
function selectionCopyThat(answer: boolean | Error | undefined): { copied: string[] } {
  const copied: string[] = [];
  Object.defineProperty(document, 'execCommand', {
    configurable: true,
    value:
      answer === undefined
        ? undefined
        : (command: string) => {
            expect(command).toBe('copy');
            const field = document.activeElement;
            if (field instanceof HTMLTextAreaElement) {
              copied.push(field.value.slice(field.selectionStart, field.selectionEnd));
            }
            if (answer instanceof Error) throw answer;
            return answer;
          },
  });
  return { copied };
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(document, 'execCommand');
  document.body.replaceChildren();
});

describe('copyText', () => {
  it('uses the clipboard API where the page has it', async () => {
    const written: string[] = [];
    clipboardThat((text) => {
      written.push(text);
      return Promise.resolve();
    });
    const selection = selectionCopyThat(true);
    expect(await copyText('acid-otter-plank')).toBe(true);
    expect(written).toEqual(['acid-otter-plank']);
    expect(selection.copied).toEqual([]);
  });

  it('copies the selected text where the page has no clipboard API (plain HTTP)', async () => {
    clipboardThat(undefined);
    const selection = selectionCopyThat(true);
    expect(await copyText('acid-otter-plank')).toBe(true);
    expect(selection.copied).toEqual(['acid-otter-plank']);
  });

  it('falls back to the selection copy when the clipboard API refuses', async () => {
    clipboardThat(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    const selection = selectionCopyThat(true);
    expect(await copyText('a link')).toBe(true);
    expect(selection.copied).toEqual(['a link']);
  });

  it('answers false, without throwing, when the clipboard refuses and execCommand copies nothing', async () => {
    clipboardThat(() => Promise.reject(new Error('denied')));
    selectionCopyThat(false);
    await expect(copyText('a link')).resolves.toBe(false);
  });

  it('answers false when there is neither a clipboard API nor execCommand', async () => {
    clipboardThat(undefined);
    selectionCopyThat(undefined);
    await expect(copyText('a link')).resolves.toBe(false);
  });

  it('answers false when execCommand throws', async () => {
    clipboardThat(undefined);
    selectionCopyThat(new Error('not allowed'));
    await expect(copyText('a link')).resolves.toBe(false);
  });

  it('leaves the focus, the selection and the page as they were', async () => {
    clipboardThat(undefined);
    selectionCopyThat(true);
    const paragraph = document.createElement('p');
    paragraph.textContent = 'words the person selected';
    const button = document.createElement('button');
    document.body.append(paragraph, button);
    button.focus();
    const range = document.createRange();
    range.selectNodeContents(paragraph);
    document.getSelection()?.removeAllRanges();
    document.getSelection()?.addRange(range);

    expect(await copyText('acid-otter-plank')).toBe(true);
    expect(document.activeElement).toBe(button);
    expect(document.getSelection()?.toString()).toBe('words the person selected');
    expect(document.body.children).toHaveLength(2);
  });
});
