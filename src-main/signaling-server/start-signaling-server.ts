import { createServer } from 'node:http';
import { DEFAULT_SIGNALING_PORT } from '../../src-shared/signaling/limits';
import { closeHttpServer, listen } from './http-listener';
import { DEFAULT_HOST, type SignalingServerOptions } from './options';
import { createSignalingService } from './signaling-service';

export interface RunningServer {
  /** Where a client on this machine reaches the server, e.g. http://127.0.0.1:3001. */
  url: string;
  port: number;
  /**
   * Serving HTTPS: the SHA-256 fingerprint of its certificate, colon-separated hex, as browsers
   * show it (docs/architecture.md, "The LAN room over HTTPS").
   */
  certificateFingerprint?: string;
  /** Disconnects every peer, stops the timers and the listening socket. */
  close(): Promise<void>;
}

/** Starts a signaling server on its own HTTP server; resolves once it answers requests. */
export async function startSignalingServer(
  options: SignalingServerOptions = {},
): Promise<RunningServer> {
  const service = await createSignalingService(options);
  const server = createServer(service.handleRequest);
  service.attach(server);
  try {
    const { url, port } = await listen(
      server,
      options.port ?? DEFAULT_SIGNALING_PORT,
      options.host ?? DEFAULT_HOST,
    );
    return {
      url,
      port,
      async close() {
        await service.close();
        await closeHttpServer(server);
      },
    };
  } catch (error) {
    await service.close();
    throw error;
  }
}
