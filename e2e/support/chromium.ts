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

// Without the background-networking flags Chromium keeps dialling out on a closed network.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
