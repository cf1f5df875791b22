import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL } from './app-origin';
import { isTrustedSender, type IpcSenderFacts } from './trusted-sender';

const APP_PAGE: IpcSenderFacts = {
  fromAppWindow: true,
  fromMainFrame: true,
  frameUrl: `${APP_ENTRY_URL}#receive=plum-otter-cask`,
};

describe('main answers only the app page in its own window', () => {
  it("trusts the app page in the main frame of Ferry's window", () => {
    expect(isTrustedSender(APP_PAGE)).toBe(true);
  });

  it.each<[string, Partial<IpcSenderFacts>]>([
    ['another window', { fromAppWindow: false }],
    ['a frame inside the window', { fromMainFrame: false }],
    ['a page from another site', { frameUrl: 'https://evil.example/' }],
    ['a local file', { frameUrl: 'file:///home/me/Downloads/evil.html' }],
    ['a frame that is gone', { frameUrl: undefined }],
  ])('refuses %s', (_why, change) => {
    expect(isTrustedSender({ ...APP_PAGE, ...change })).toBe(false);
  });
});
