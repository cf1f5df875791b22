import { usePrivateFerryHome } from '../../test-support/private-ferry-home';

/** Playwright's global setup: the workers, and the peers they start, inherit a private FERRY_HOME. */
export default function globalSetup(): () => void {
  return usePrivateFerryHome();
}
