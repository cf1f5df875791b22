import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopControllerOptions } from '../../../src-main/desktop/desktop-controller';
import { startSignalingServer } from '../../../src-main/signaling-server';
import { scratchDir } from '../web-client/test-files';
import { startDesktopBridge, type DesktopBridge } from './bridge-server';
import { testControllerOptions } from './test-controller-options';

export interface LoopbackDesktop {
  server: Awaited<ReturnType<typeof startSignalingServer>>;
  bridge: DesktopBridge;
  scratch: ReturnType<typeof scratchDir>;
  /** The app's download folder, inside `scratch`. */
  downloads: string;
  close(): Promise<void>;
}

/**
 * The desktop app as the e2e specs drive it: a signaling server on loopback, and the real
 * desktop controller behind the bridge, with its user data and downloads in a scratch folder.
 */
export async function startLoopbackDesktop(
  label: string,
  overrides: Partial<DesktopControllerOptions> = {},
): Promise<LoopbackDesktop> {
  const scratch = scratchDir(label);
  const downloads = join(scratch.path, 'Downloads');
  mkdirSync(downloads);
  const server = await startSignalingServer({
    port: 0,
    host: '127.0.0.1',
    log: { info: () => undefined, error: (line) => console.error(line) },
  });
  const bridge = await startDesktopBridge(
    testControllerOptions({
      userDataDir: join(scratch.path, 'user-data'),
      defaultDownloadFolder: downloads,
      defaultServerUrl: server.url,
      lanAddress: '127.0.0.1',
      ...overrides,
    }),
  );
  return {
    server,
    bridge,
    scratch,
    downloads,
    async close() {
      await bridge.close();
      await server.close();
      scratch.remove();
    },
  };
}
