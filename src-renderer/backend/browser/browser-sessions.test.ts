import { describe, expect, it } from 'vitest';
import { createBrowserBackend } from './browser-backend';

// What the page refuses to send before any connection is tried: the browser's session starter
// answers these itself, and the screen shows the sentence.
describe('a send the page cannot make', () => {
  const page = { origin: 'http://127.0.0.1:9', href: 'http://127.0.0.1:9/', userAgent: '' };

  it('names an item the page no longer holds', async () => {
    const backend = createBrowserBackend(page);
    const gone = { id: 'gone', name: 'holiday.jpg', size: 5, isDirectory: false, fileCount: 1 };
    expect(await backend.startSend([gone])).toEqual({
      ok: false,
      error: {
        code: 'ERR_UNKNOWN_ITEM',
        message: 'holiday.jpg is no longer available; choose it again.',
      },
    });
  });

  it('asks for at least one file', async () => {
    expect(await createBrowserBackend(page).startSend([])).toEqual({
      ok: false,
      error: { code: 'ERR_NOTHING_TO_SEND', message: 'Choose at least one file to send.' },
    });
  });

  it('says why a text is not sent', async () => {
    expect(await createBrowserBackend(page).startSendText('')).toEqual({
      ok: false,
      error: { code: 'ERR_TEXT_REFUSED', message: 'The text is empty.' },
    });
  });

  it('leaves nothing running after a refusal: the screen can be left as before', async () => {
    const backend = createBrowserBackend(page);
    await backend.startSendText('');
    expect(await backend.dismiss()).toEqual({ ok: true, value: null });
  });
});
