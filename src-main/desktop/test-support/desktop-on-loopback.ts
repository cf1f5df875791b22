import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { EventContract, InvokeChannel } from '../../../src-shared/ipc/contract';
import { dispatchInvoke } from '../../../src-shared/ipc/dispatch';
import type { IpcResult } from '../../../src-shared/ipc/result';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import type { LoopbackRig } from '../../engine/test-support/loopback-rig';
import { createDesktopController, type DesktopController } from '../desktop-controller';

export interface DesktopOnLoopback {
  controller: DesktopController;
  /** What the file and folder dialogs answer next. */
  dialog: { files: string[]; folder: string | null };
  /** Every path main asked the operating system to open or show. */
  opened: string[];
  downloads: string;
  transferViews: TransferView[];
  warnings: EventContract['transferWarning'][];
  /** A request as the window makes it: through the IPC contract's dispatch. */
  call(channel: InvokeChannel, request: unknown): Promise<IpcResult<unknown>>;
  nextView(matches: (view: TransferView) => boolean): Promise<TransferView>;
}

/**
 * The desktop app's main process on a loopback signaling server, asked the way the window asks
 * it. Call at the top level of a test file; each test gets its own app, closed after it.
 */
export function useDesktopOnLoopback(
  rig: LoopbackRig,
): (name: string) => Promise<DesktopOnLoopback> {
  let running: DesktopController | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  return async (name) => {
    const root = join(rig.scratch.path, name);
    const dialog: DesktopOnLoopback['dialog'] = { files: [], folder: null };
    const opened: string[] = [];
    const downloads = join(root, 'Downloads');
    const controller = await createDesktopController({
      userDataDir: join(root, 'user-data'),
      defaultDownloadFolder: downloads,
      defaultServerUrl: rig.server.url,
      webClientRoot: root,
      version: 'dev',
      discoverRooms: false,
      dialogs: {
        pickFiles: async () => dialog.files,
        pickFolder: async () => dialog.files,
        pickDownloadFolder: async () => dialog.folder,
      },
      desktopShell: {
        openFolder: async (path) => void opened.push(path),
        revealFile: (path) => void opened.push(path),
      },
    });
    running = controller;
    const transferViews: TransferView[] = [];
    const warnings: EventContract['transferWarning'][] = [];
    controller.onEvent((channel, payload) => {
      if (channel === 'transferState') transferViews.push(payload as TransferView);
      if (channel === 'transferWarning') {
        warnings.push(payload as EventContract['transferWarning']);
      }
    });
    return {
      controller,
      dialog,
      opened,
      downloads,
      transferViews,
      warnings,
      call: (channel, request) =>
        dispatchInvoke(controller.handlers, channel, request, (error) => {
          throw error;
        }),
      nextView: (matches) =>
        new Promise((resolve) => {
          const stop = controller.onEvent((channel, payload) => {
            if (channel === 'transferState' && matches(payload as TransferView)) {
              stop();
              resolve(payload as TransferView);
            }
          });
        }),
    };
  };
}
