import type { Page } from '@playwright/test';

/**
 * Puts a `window.ferry` on the page that speaks to the bridge server instead of Electron's IPC.
 * The one thing a browser cannot give is a dropped file's disk path, so tests register the path
 * of each file they drop by name (`window.__ferryDropPaths`), and the bridge reports it to main
 * as Electron's preload would.
 */
export async function installDesktopBridge(page: Page, wsUrl: string): Promise<void> {
  await page.addInitScript((url: string) => {
    type Listener = (payload: unknown) => void;
    const socket = new WebSocket(url);
    const opened = new Promise<void>((done) => socket.addEventListener('open', () => done()));
    const pending = new Map<number, (result: unknown) => void>();
    const listeners = new Map<string, Set<Listener>>();
    const dropPaths = new Map<string, string>();
    let nextId = 1;

    socket.addEventListener('message', (message) => {
      const data = JSON.parse(String(message.data));
      if (data.kind === 'reply') {
        pending.get(data.id)?.(data.result);
        pending.delete(data.id);
      } else {
        for (const listener of listeners.get(data.channel) ?? []) listener(data.payload);
      }
    });

    const invoke = new Proxy(
      {},
      {
        get: (_target, channel: string) => async (request: unknown) => {
          await opened;
          const id = nextId++;
          return new Promise((done) => {
            pending.set(id, done);
            socket.send(JSON.stringify({ kind: 'invoke', id, channel, request }));
          });
        },
      },
    );

    Object.assign(window, {
      __ferryDropPaths: dropPaths,
      ferry: {
        invoke,
        on(channel: string, listener: Listener) {
          const set = listeners.get(channel) ?? new Set<Listener>();
          listeners.set(channel, set);
          set.add(listener);
          return () => set.delete(listener);
        },
        // As the preload does: a dropped file's path is reported to main, which then trusts it.
        pathForFile: (file: File) => {
          const path = dropPaths.get(file.name) ?? '';
          if (path !== '')
            void opened.then(() => socket.send(JSON.stringify({ kind: 'dropped-path', path })));
          return path;
        },
      },
    });
  }, wsUrl);
}

/** Drops files and folders on the drop zone as the OS would, by their disk paths. */
export async function dropPaths(page: Page, paths: readonly string[]): Promise<void> {
  const zone = page.getByTestId('drop-zone');
  const dataTransfer = await page.evaluateHandle((all: readonly string[]) => {
    const transfer = new DataTransfer();
    const registry = (window as unknown as { __ferryDropPaths: Map<string, string> })
      .__ferryDropPaths;
    for (const path of all) {
      const name = path.split('/').pop() ?? path;
      registry.set(name, path);
      transfer.items.add(new File([], name));
    }
    return transfer;
  }, paths);
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}
