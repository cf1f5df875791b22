import { test } from '@playwright/test';
import { onCi } from '../../test-support/required-tools';
import { canUseNetns } from './netns';

/**
 * Declares, in a spec's `beforeEach`, that its tests build network namespaces to `purpose`.
 * Without the capability they skip with one line, as a missing tool does; under CI=true, where
 * `.ci/run` runs as root with iproute2, they fail with the capability named.
 */
export async function requireNetns(purpose: string): Promise<void> {
  if (await canUseNetns()) return;
  const reason = `needs root and a working \`ip netns\` to ${purpose}`;
  if (onCi()) throw new Error(`${reason}; it is missing under CI=true, where .ci/run has both`);
  test.skip(true, reason);
}
