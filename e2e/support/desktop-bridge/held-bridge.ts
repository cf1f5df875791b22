import type { Page } from '@playwright/test';

export interface HeldBridge {
  /** From now on, what the controller sends waits here instead of reaching the page. */
  hold(): void;
  /** Delivers what waited, in order, and lets the rest through. */
  release(): void;
}

/**
 * Routes the page's bridge socket through the test, so a screen can be held still: before the
 * first snapshot (the start-up screen) or while bytes move (the progress screen). The controller
 * carries on; only the page stops hearing about it until `release`.
 */
export async function routeBridge(page: Page, wsUrl: string, held = false): Promise<HeldBridge> {
  const waiting: (() => void)[] = [];
  let holding = held;
  await page.routeWebSocket(wsUrl, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      if (holding) waiting.push(() => socket.send(message));
      else socket.send(message);
    });
  });
  return {
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const deliver of waiting.splice(0)) deliver();
    },
  };
}
