import { describe, expect, it } from 'vitest';
import { plainHttpSentence } from './plain-http';

describe('what a page opened over plain HTTP says of itself', () => {
  it('names the page, what the browser withholds from it, and what would lift it', () => {
    expect(plainHttpSentence(['choose-folder', 'stream-downloads'])).toBe(
      'This page was opened over plain HTTP, so the browser does not let it save into a folder you choose, nor stream downloads to disk as they arrive. Opened over https or from localhost it may; the Ferry desktop app always can.',
    );
    expect(plainHttpSentence(['notify'])).toBe(
      'This page was opened over plain HTTP, so the browser does not let it notify you while it is out of sight. Opened over https or from localhost it may; the Ferry desktop app always can.',
    );
  });

  it('never puts it on the other device', () => {
    const sentence = plainHttpSentence(['choose-folder', 'stream-downloads', 'notify']) ?? '';
    expect(sentence).not.toMatch(/other device|sending device|sender/i);
  });

  it('says nothing when nothing is withheld', () => {
    expect(plainHttpSentence([])).toBeUndefined();
  });
});
