import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { dispatchInvoke } from '../../../src-shared/ipc/dispatch';
import {
  createDesktopController,
  type DesktopController,
  type DesktopControllerOptions,
} from '../../../src-main/desktop/desktop-controller';
import type { BridgeReply, BridgeRequest } from './bridge-messages';

export interface DesktopBridge {
  /** Open this in Chromium with the bridge's init script installed. */
  url: string;
  wsUrl: string;
  controller: DesktopController;
  close(): Promise<void>;
}

/**
 * Stands in for Electron's IPC in e2e tests: serves the built renderer and carries the contract's
 * requests and events over a WebSocket to the real desktop controller, through the same
 * dispatchInvoke the Electron shell uses.
 */
export async function startDesktopBridge(
  options: DesktopControllerOptions,
  rendererRoot = resolve('out/renderer'),
): Promise<DesktopBridge> {
  const controller = await createDesktopController(options);
  const app = express();
  app.use(express.static(rendererRoot));
  const server = createServer(app);
  const sockets = new WebSocketServer({ server, path: '/bridge' });
  const clients = new Set<WebSocket>();

  const stopEvents = controller.onEvent((channel, payload) => {
    const message = JSON.stringify({ kind: 'event', channel, payload } satisfies BridgeReply);
    for (const client of clients) client.send(message);
  });

  sockets.on('connection', (socket) => {
    clients.add(socket);
    socket.on('close', () => clients.delete(socket));
    socket.on('message', (data) => {
      const request = JSON.parse(String(data)) as BridgeRequest;
      // The preload's own channel in Electron: the page never sends this itself.
      if (request.kind === 'dropped-path') return controller.addDroppedPath(request.path);
      void dispatchInvoke(controller.handlers, request.channel, request.request, (error) =>
        console.error(error),
      ).then((result) =>
        socket.send(
          JSON.stringify({ kind: 'reply', id: request.id, result } satisfies BridgeReply),
        ),
      );
    });
  });

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    wsUrl: `ws://127.0.0.1:${port}/bridge`,
    controller,
    async close() {
      stopEvents();
      for (const client of clients) client.terminate();
      sockets.close();
      await new Promise<void>((done) => server.close(() => done()));
      await controller.close();
    },
  };
}
