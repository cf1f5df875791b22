import { describe, expect, it } from 'vitest';
import { LISTED_NAME_DISPLAY_MAX_CHARS } from '../protocol/limits';
import { offerFileViews, shortenForDisplay } from './offer-files';

describe('a listed file as the accept prompt shows it', () => {
  it('keeps a short name whole', () => {
    expect(shortenForDisplay('photos/beach.jpg', 20)).toBe('photos/beach.jpg');
  });

  it('cuts a long name in the middle, so its folder and its extension both stay in sight', () => {
    expect(shortenForDisplay('abcdefghij.exe', 9)).toBe('abcd….exe');
    expect([...shortenForDisplay('😀'.repeat(50), 11)]).toHaveLength(11);
  });

  it('flags a long name on the whole of it, not on what is shown', () => {
    const path = `${'a'.repeat(LISTED_NAME_DISPLAY_MAX_CHARS)}/.hidden/${'b'.repeat(200)}.exe`;
    const [view] = offerFileViews([{ path, size: 1 }], 'unknown');
    expect([...view.name]).toHaveLength(LISTED_NAME_DISPLAY_MAX_CHARS);
    expect(view.name).not.toContain('.hidden');
    expect(view).toMatchObject({ size: 1, hidden: true, executable: true });
  });
});
