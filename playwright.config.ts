import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './e2e/support/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-ferry-home.ts',
  timeout: 120_000,
  workers: 1,
  // Never retried, on CI or anywhere: a connection that fails must show as a failure. Retrying a
  // failed WebRTC setup is the product's job, not the test runner's.
  retries: 0,
  fullyParallel: false,
  reporter: [
    ['list'],
    // One line per skipped test, saying why (what to install); see e2e/support/required-tools.ts.
    ['./e2e/support/skip-lines-reporter.ts'],
    ['json', { outputFile: 'reports/playwright.json' }],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    // Undefined without Chromium: the specs that need it are then skipped before any launch.
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    trace: 'off',
  },
});
