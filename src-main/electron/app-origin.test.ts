import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isAppUrl, rendererFileFor } from './app-origin';

const ROOT = '/opt/Ferry/resources/app.asar/out/renderer';

describe('the app origin serves the built renderer and nothing else', () => {
  it('maps app URLs to files of the renderer folder', () => {
    expect(rendererFileFor(ROOT, APP_ENTRY_URL)).toBe(join(ROOT, 'index.html'));
    expect(rendererFileFor(ROOT, 'ferry://app/assets/index-abc.js?v=1#x')).toBe(
      join(ROOT, 'assets/index-abc.js'),
    );
  });

  it.each([
    ['ferry://app/assets%2f..%2f..%2f..%2fetc%2fpasswd', 'encoded slashes'],
    ['ferry://app/..%5c..%5cwindows%5cwin.ini', 'encoded backslashes'],
    ['ferry://app/index.html%00.png', 'an encoded NUL'],
    ['ferry://app/%E0%A4%A', 'broken percent-encoding'],
    ['ferry://app/', 'the folder itself'],
    ['ferry://elsewhere/index.html', 'another host'],
    ['file:///opt/Ferry/resources/app.asar/out/renderer/index.html', 'a file URL'],
    ['https://app/index.html', 'another scheme'],
  ])('refuses %s (%s)', (url) => {
    expect(rendererFileFor(ROOT, url)).toBeUndefined();
  });

  it.each(['ferry://app/../../../etc/passwd', 'ferry://app/%2e%2e/%2e%2e/etc/passwd'])(
    'resolves %s inside the renderer folder, never above it',
    (url) => {
      expect(rendererFileFor(ROOT, url)).toBe(join(ROOT, 'etc/passwd'));
    },
  );

  it('counts only its own scheme and host as the app', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('ferry://app/index.html#receive=a-b-c')).toBe(true);
    expect(isAppUrl('ferry://evil/index.html')).toBe(false);
    expect(isAppUrl('file:///tmp/index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
    expect(isAppUrl(undefined)).toBe(false);
  });
});
