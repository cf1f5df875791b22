import {
  createDesktopController,
  type DesktopController,
} from '../../../src-main/desktop/desktop-controller';
import type { DesktopSettings } from '../../../src-shared/ipc/contract';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import type { NativeOutcome, NativePeerKind } from './native-peers';
import { testControllerOptions } from '../desktop-bridge/test-controller-options';

const STEP_TIMEOUT_MS = 60_000;

/** The desktop app's controller in this process, driven through its IPC handler map. */
class ControllerPeer {
  readonly #views: TransferView[] = [];
  readonly #waiters = new Set<() => void>();

  private constructor(readonly controller: DesktopController) {
    controller.onEvent((channel, payload) => {
      if (channel !== 'transferState') return;
      this.#views.push(payload as TransferView);
      for (const waiter of [...this.#waiters]) waiter();
    });
  }

  static async start(
    serverUrl: string,
    settings: Partial<DesktopSettings> = {},
  ): Promise<ControllerPeer> {
    const controller = await createDesktopController(
      testControllerOptions({ defaultServerUrl: serverUrl }),
    );
    await controller.handlers.updateSettings(settings);
    return new ControllerPeer(controller);
  }

  /** The first view (seen or still to come) in one of `phases`. */
  reach<P extends TransferView['phase']>(
    ...phases: P[]
  ): Promise<Extract<TransferView, { phase: P }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${phases.join('/')} view`))),
        STEP_TIMEOUT_MS,
      );
      const check = (): void => {
        const found = this.#views.find((view) => (phases as string[]).includes(view.phase));
        if (found) done(() => resolve(found as Extract<TransferView, { phase: P }>));
      };
      const done = (settle: () => void): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        settle();
      };
      this.#waiters.add(check);
      check();
    });
  }

  async outcome(): Promise<NativeOutcome> {
    const end = await this.reach('done', 'failed');
    await this.controller.close();
    return end.phase === 'done'
      ? { exitCode: 0, output: 'done' }
      : { exitCode: 1, output: `Error: ${end.message}` };
  }
}

/** The desktop app as a native peer: the same controller the Electron shell registers. */
export const desktopController: NativePeerKind = {
  name: 'desktop controller',
  updateRemedy: 'download the latest Ferry desktop app',

  async send(serverUrl, paths) {
    const peer = await ControllerPeer.start(serverUrl);
    // The person drops the files on the window: main trusts what the preload reports.
    for (const path of paths) peer.controller.addDroppedPath(path);
    await peer.controller.handlers.startSend({ paths: [...paths] });
    const { code } = await peer.reach('waiting-for-peer');
    return {
      code,
      transferring: async () => void (await peer.reach('transferring')),
      finished: () => peer.outcome(),
      cancel: async () => void (await peer.controller.handlers.cancelTransfer({})),
    };
  },

  receive(serverUrl, code, { destination, ask }) {
    const started = ControllerPeer.start(serverUrl, { downloadFolder: destination }).then(
      async (peer) => {
        await peer.controller.handlers.startReceive({ code });
        // Only a remembered device is accepted without asking: here the person says yes at once.
        // A transfer that ends before asking leaves nothing to answer, and `finished` says why.
        if (!ask) {
          peer.reach('awaiting-acceptance').then(
            () => peer.controller.handlers.answerOffer({ accept: true }).catch(() => undefined),
            () => undefined,
          );
        }
        return peer;
      },
    );
    return {
      offered: async () => void (await (await started).reach('awaiting-acceptance')),
      answer: (accept) =>
        void started.then((peer) => peer.controller.handlers.answerOffer({ accept })),
      transferring: async () => void (await (await started).reach('transferring')),
      finished: async () => (await started).outcome(),
      cancel: async () => void (await (await started).controller.handlers.cancelTransfer({})),
    };
  },
};
