import { findTool } from '../../test-support/required-tools';

/**
 * Debian's Chromium (CHROMIUM_PATH, else /usr/bin/chromium); Playwright's own browser download
 * cannot work offline. Undefined when absent, or hidden with FERRY_TEST_HIDE=chromium.
 */
export function findChromium(): string | undefined {
  return findTool('chromium');
}

export const CHROMIUM_INSTALL_HINT =
  'Chromium not found: install it with `sudo apt-get install -y chromium` or set CHROMIUM_PATH.';

/**
 * A name that is not loopback to the browser, so a page opened from it is no secure context (as a
 * LAN room's address is on a phone), while its traffic stays on loopback.
 */
export const INSECURE_TEST_HOST = 'ferry-lan.test';

// Without the background-networking flags Chromium keeps dialling out on a closed network.
export const CHROMIUM_ARGS = [
  `--host-resolver-rules=MAP ${INSECURE_TEST_HOST} 127.0.0.1`,
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
