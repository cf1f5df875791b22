import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { DevicesView, EventContract, InvokeChannel } from '../../../src-shared/ipc/contract';
import { dispatchInvoke } from '../../../src-shared/ipc/dispatch';
import type { HistoryEntry } from '../../../src-shared/history/transfer-history';
import type { IpcResult } from '../../../src-shared/ipc/result';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import type { NearbyView } from '../../../src-shared/app/nearby-core';
import type { LoopbackRig } from '../../engine/test-support/loopback-rig';
import { createDesktopController, type DesktopController } from '../desktop-controller';
import type { ChangeQuestion } from '../desktop-ports';

export interface DesktopOnLoopback {
  controller: DesktopController;
  /**
   * What the file and folder dialogs answer next, and whether the person confirms a change main
   * asks about (yes unless a test says otherwise).
   */
  dialog: { files: string[]; folder: string | null; confirms: boolean };
  /** Every change main asked the person to confirm. */
  questions: ChangeQuestion[];
  /** Every path main asked the operating system to open or show. */
  opened: string[];
  downloads: string;
  transferViews: TransferView[];
  warnings: EventContract['transferWarning'][];
  /** Every device list main pushed to the window. */
  devicesChanged: DevicesView[];
  /** Every history main pushed to the window. */
  historyChanged: HistoryEntry[][];
  /** Resolves with the nearby view once one matches, the last one main pushed included. */
  nearbyWhere(matches: (view: NearbyView) => boolean): Promise<NearbyView>;
  /** A request as the window makes it: through the IPC contract's dispatch. */
  call(channel: InvokeChannel, request: unknown): Promise<IpcResult<unknown>>;
  nextView(matches: (view: TransferView) => boolean): Promise<TransferView>;
  /** Quits the app, as the person does; the next `desktop(name)` opens it again on its data. */
  close(): Promise<void>;
}

/**
 * The desktop app's main process on a loopback signaling server, asked the way the window asks
 * it. Call at the top level of a test file; each test gets its own apps, closed after it. Two
 * calls with the same name share one user-data folder: the same installation, opened again.
 */
export function useDesktopOnLoopback(
  rig: LoopbackRig,
): (name: string) => Promise<DesktopOnLoopback> {
  const running = new Set<DesktopController>();
  afterEach(async () => {
    await Promise.all([...running].map((controller) => controller.close()));
    running.clear();
  });

  return async (name) => {
    const root = join(rig.scratch.path, name);
    const dialog: DesktopOnLoopback['dialog'] = { files: [], folder: null, confirms: true };
    const questions: ChangeQuestion[] = [];
    const opened: string[] = [];
    const downloads = join(root, 'Downloads');
    const controller = await createDesktopController({
      userDataDir: join(root, 'user-data'),
      defaultDownloadFolder: downloads,
      defaultServerUrl: rig.server.url,
      webClientRoot: root,
      version: 'dev',
      discoverRooms: false,
      // A LAN room the tests turn on stays on loopback.
      lanAddress: '127.0.0.1',
      dialogs: {
        pickFiles: async () => dialog.files,
        pickFolder: async () => dialog.files,
        pickDownloadFolder: async () => dialog.folder,
        confirmChange: async (question) => {
          questions.push(question);
          return dialog.confirms;
        },
      },
      desktopShell: {
        openFolder: async (path) => void opened.push(path),
        revealFile: (path) => void opened.push(path),
      },
    });
    running.add(controller);
    const transferViews: TransferView[] = [];
    const warnings: EventContract['transferWarning'][] = [];
    const devicesChanged: DevicesView[] = [];
    const historyChanged: HistoryEntry[][] = [];
    const nearbyViews: NearbyView[] = [];
    controller.onEvent((channel, payload) => {
      if (channel === 'transferState') transferViews.push(payload as TransferView);
      if (channel === 'transferWarning') {
        warnings.push(payload as EventContract['transferWarning']);
      }
      if (channel === 'devicesChanged') devicesChanged.push(payload as DevicesView);
      if (channel === 'historyChanged') historyChanged.push(payload as HistoryEntry[]);
      if (channel === 'nearbyChanged') nearbyViews.push(payload as NearbyView);
    });
    return {
      controller,
      dialog,
      questions,
      opened,
      downloads,
      transferViews,
      warnings,
      devicesChanged,
      historyChanged,
      call: (channel, request) =>
        dispatchInvoke(controller.handlers, channel, request, (error) => {
          throw error;
        }),
      nearbyWhere: (matches) =>
        new Promise((resolve) => {
          const stop = controller.onEvent((channel, payload) => {
            if (channel === 'nearbyChanged' && matches(payload as NearbyView)) {
              stop();
              resolve(payload as NearbyView);
            }
          });
          const now = nearbyViews.at(-1);
          if (now !== undefined && matches(now)) {
            stop();
            resolve(now);
          }
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
      close: async () => {
        running.delete(controller);
        await controller.close();
      },
    };
  };
}
