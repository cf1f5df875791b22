import { test } from '@playwright/test';
import { checkTool, type RequiredTool } from '../../test-support/required-tools';

/**
 * Declares, at the top of a spec file or describe block, that its tests need `tool` (see
 * test-support/required-tools.ts). Present: nothing happens, and the tool's path is returned.
 * Absent: every test is skipped before any hook or fixture runs, and skip-lines-reporter.ts
 * prints one line per test with the reason. Absent under CI=true: every test fails with it.
 */
export function requireTool(tool: RequiredTool): string | undefined {
  const check = checkTool(tool);
  if (check.outcome === 'run') return check.path;
  if (check.outcome === 'skip') {
    test.skip(true, check.reason);
  } else {
    // Declared before the spec's own hooks, so it runs before any of them asks for a browser.
    test.beforeEach(() => {
      throw new Error(check.reason);
    });
  }
  return undefined;
}
