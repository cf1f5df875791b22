import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { resolve } from 'node:path';
import {
  closeHttpServer,
  consoleLogSink,
  createSignalingService,
  DEFAULT_HOST,
  listen,
  type LogSink,
  type RunningServer,
  type SignalingServerOptions,
  type SignalingService,
} from '../signaling-server';
import { loadRoomCertificate, namesServedOn } from '../lan/room-certificate';
import { ownHostOnly } from './own-host-only';
import { webHostApp } from './web-host-app';

/** The port of the local web client, which the signaling server's built-in origins allow. */
export const DEFAULT_WEB_HOST_PORT = 3000;

export interface WebHostOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 0.0.0.0. */
  host?: string;
  /** The built renderer. Default out/renderer, from the working directory. */
  root?: string;
  /** Where browsers find the signaling server; empty (the default) means this host's own origin. */
  socketUrl?: string;
  /** The source revision of the build, reported by /api/config; null (the default) when unknown. */
  commit?: string | null;
  /**
   * Mounts a signaling server in the same HTTP server, so one origin serves the page, its API and
   * both socket transports (a LAN room). Its port and host are this host's.
   */
  signaling?: Omit<SignalingServerOptions, 'port' | 'host'>;
  /**
   * Answer only requests whose Host header is this host's own `host` and port, and refuse the rest
   * with 421, sockets included: a LAN room's defence against DNS rebinding. Needs a specific
   * `host`, not a wildcard. Default false.
   */
  ownHostOnly?: boolean;
  /**
   * Serve HTTPS with the certificate kept in this folder, made on first use
   * (docs/architecture.md, "The LAN room over HTTPS"). Default: plain HTTP.
   */
  https?: { certificateFolder: string };
  log?: LogSink;
}

/** Starts the web-client host; resolves once it answers requests. */
export async function startWebHost(options: WebHostOptions = {}): Promise<RunningServer> {
  const log = options.log ?? consoleLogSink;
  const host = options.host ?? DEFAULT_HOST;
  const certificate =
    options.https === undefined
      ? undefined
      : await loadRoomCertificate(options.https.certificateFolder, namesServedOn(host), (line) =>
          log.error(line),
        );
  let signaling: SignalingService | undefined;
  if (options.signaling !== undefined) {
    signaling = await createSignalingService({ log, ...options.signaling, allowSameOrigin: true });
  }
  const app = webHostApp({
    root: resolve(options.root ?? 'out/renderer'),
    config: { socketUrl: options.socketUrl ?? '', commit: options.commit ?? null },
    signaling: signaling?.handleRequest,
    log,
  });
  const server: Server =
    certificate === undefined
      ? createServer(app)
      : createTlsServer({ cert: certificate.certificate, key: certificate.key }, app);
  signaling?.attach(server);
  if (options.ownHostOnly) ownHostOnly(server);
  try {
    const { url, port } = await listen(server, options.port ?? DEFAULT_WEB_HOST_PORT, host);
    return {
      url,
      port,
      ...(certificate === undefined ? {} : { certificateFingerprint: certificate.fingerprint }),
      async close() {
        await signaling?.close();
        await closeHttpServer(server);
      },
    };
  } catch (error) {
    await signaling?.close();
    throw error;
  }
}
