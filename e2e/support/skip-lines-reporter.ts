import { relative } from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { skipLine } from '../../test-support/required-tools';

/**
 * Prints one line for every skipped test, with the reason it was skipped, so that a run on a
 * machine without Chromium or an Electron runtime says what to install (the list reporter shows
 * only that a test was skipped).
 */
export default class SkipLinesReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'skipped') return;
    const skip = [...result.annotations, ...test.annotations].find((a) => a.type === 'skip');
    // titlePath(): root, project, file, then the describe blocks and the test's own title.
    const where = [relative(process.cwd(), test.location.file), ...test.titlePath().slice(3)];
    console.log(skipLine(skip?.description ?? 'no reason given', where.join(' › ')));
  }

  printsToStdio(): boolean {
    return true;
  }
}
