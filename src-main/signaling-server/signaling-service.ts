import { randomInt } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { HTTP_ERROR } from '../../src-shared/signaling/http-api';
import { SOCKET_IO_PATH, WS_PATH } from '../../src-shared/signaling/endpoints';
import {
  CODE_SWEEP_INTERVAL_MS,
  DEFAULT_MAX_ACTIVE_CODES,
  DEFAULT_MAX_CODE_REQUESTS_PER_IP,
  DEFAULT_MAX_CONNECTIONS_PER_IP,
  DEFAULT_MAX_FAILED_CODE_LOOKUPS,
  DEFAULT_MAX_REPORT_BYTES,
  DEFAULT_MAX_TURN_REQUESTS_PER_IP,
  MAX_REPORTS_PER_IP,
  RELAY_PROVIDER_TIMEOUT_MS,
} from '../../src-shared/signaling/limits';
import { OriginPolicy } from './access/origin-policy';
import type { SignalingCluster } from './cluster/signaling-cluster';
import { CodeRegistrar } from './codes/code-registrar';
import { signalingHttpApp } from './http/signaling-http-app';
import type { IceServerList } from './ice/ice-server-list';
import { PublicStunServers } from './ice/public-stun-servers';
import { RelayProviderServers } from './ice/relay-provider-servers';
import { SelfHostedTurnServers } from './ice/self-hosted-turn-servers';
import { consoleLogSink, type LogSink } from './log-sink';
import { DEFAULT_TURN_PROVIDER_URL, type SignalingServerOptions } from './options';
import { PresenceRoster } from './presence/presence-roster';
import { SignalingHub } from './rooms/signaling-hub';
import { systemClock, systemEvery, type Clock } from './schedule';
import { inMemoryState, type SignalingState } from './signaling-state';
import { ConnectionGate } from './transports/connection-gate';
import { rejectUpgrade } from './transports/reject-upgrade';
import { SocketIoTransport } from './transports/socket-io-transport';
import { WsTransport } from './transports/ws-transport';

/**
 * The signaling server without its own listening socket, so that it can live in any HTTP server:
 * its own (startSignalingServer) or the web-client host's.
 */
export interface SignalingService {
  /** Answers the HTTP endpoints; anything else gets a JSON 404. */
  readonly handleRequest: Express;
  /** Serves both socket transports on `server`; call once, after its request listener is set. */
  attach(server: Server): void;
  close(): Promise<void>;
}

function iceServerList(
  options: SignalingServerOptions,
  now: () => number,
  log: LogSink,
): IceServerList {
  if (options.hostCandidatesOnly) return { current: async () => [] };
  const fallback =
    options.turnSecret && options.turnDomain
      ? new SelfHostedTurnServers(options.turnSecret, options.turnDomain, now)
      : new PublicStunServers();
  if (!options.turnProviderKeyId || !options.turnProviderApiToken) return fallback;
  const account = {
    baseUrl: options.turnProviderUrl ?? DEFAULT_TURN_PROVIDER_URL,
    keyId: options.turnProviderKeyId,
    apiToken: options.turnProviderApiToken,
    timeoutMs: options.turnProviderTimeoutMs ?? RELAY_PROVIDER_TIMEOUT_MS,
  };
  return new RelayProviderServers(account, fallback, now, log);
}

function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://server').pathname;
}

/**
 * Loads the cluster only when there is one, so that Redis's packages stay out of every program
 * that never has one, the desktop app's embedded server first (docs/architecture.md, "Build and
 * packaging").
 */
async function joinCluster(url: string, now: Clock, log: LogSink): Promise<SignalingCluster> {
  const { SignalingCluster } = await import('./cluster/signaling-cluster');
  return SignalingCluster.join(url, now, log);
}

export async function createSignalingService(
  options: SignalingServerOptions = {},
): Promise<SignalingService> {
  const now = options.now ?? systemClock;
  const every = options.every ?? systemEvery;
  const log = options.log ?? consoleLogSink;
  const trustedProxyCount = options.trustedProxyCount ?? 0;

  const cluster = options.redisUrl ? await joinCluster(options.redisUrl, now, log) : undefined;
  const state: SignalingState = cluster ?? inMemoryState(now);
  const origins = new OriginPolicy(options.clientUrl, options.allowSameOrigin ?? false);
  const limiters = {
    connections: state.limiter(
      'connections',
      options.maxConnectionsPerIp ?? DEFAULT_MAX_CONNECTIONS_PER_IP,
    ),
    turn: state.limiter('turn', options.maxTurnRequestsPerIp ?? DEFAULT_MAX_TURN_REQUESTS_PER_IP),
    codes: state.limiter('codes', options.maxCodeRequestsPerIp ?? DEFAULT_MAX_CODE_REQUESTS_PER_IP),
    reports: state.limiter('reports', MAX_REPORTS_PER_IP),
  };
  const failedLookups = state.budget(
    'failed-code-lookups',
    options.maxFailedCodeLookups ?? DEFAULT_MAX_FAILED_CODE_LOOKUPS,
  );
  const randomIndex = options.randomIndex ?? ((exclusiveMax) => randomInt(exclusiveMax));
  const codes = new CodeRegistrar(
    state.codeStore,
    options.maxActiveCodes ?? DEFAULT_MAX_ACTIVE_CODES,
    randomIndex,
    now,
  );
  const hub = new SignalingHub(state.registry, state.instance, log);
  // Per process even in a cluster (docs/protocol.md, "Presence"): a LAN room is one server.
  const presence = options.presence ? new PresenceRoster(randomIndex, log) : undefined;
  try {
    await cluster?.serve(hub, every);
  } catch (error) {
    cluster?.close();
    throw error;
  }
  const gate = new ConnectionGate(origins, limiters.connections, trustedProxyCount);

  const housekeeping = (task: () => Promise<void>, what: string) => () => {
    task().catch((error: unknown) => log.error(`${what} failed: ${String(error)}`));
  };
  const stopTimers = [
    every(
      CODE_SWEEP_INTERVAL_MS,
      housekeeping(() => codes.sweep(), 'Sweeping lapsed codes'),
    ),
  ];

  const app = signalingHttpApp({
    origins,
    trustedProxyCount,
    turnLimit: limiters.turn,
    codeLimit: limiters.codes,
    failedLookups,
    reportLimit: limiters.reports,
    iceServers: iceServerList(options, now, log),
    codes,
    counter: state.counter,
    healthProblem: () => state.healthProblem(),
    maxReportBytes: options.maxReportBytes ?? DEFAULT_MAX_REPORT_BYTES,
    now,
    log,
  });

  let transports: { socketIo: SocketIoTransport; ws: WsTransport } | undefined;

  return {
    handleRequest: app,
    attach(server) {
      if (transports !== undefined) throw new Error('The signaling service is already attached');
      const attached = {
        socketIo: new SocketIoTransport(server, hub, gate, cluster?.socketIoAdapter(), presence),
        ws: new WsTransport(hub, gate, every, presence),
      };
      // In a cluster, an emit to a socket id reaches it on any server, through the Redis adapter.
      if (cluster !== undefined) hub.relayVia('socket.io', attached.socketIo);
      transports = attached;
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        const path = pathOf(request);
        if (path === WS_PATH) {
          attached.ws.handleUpgrade(request, socket, head).catch((error: unknown) => {
            log.error(`WebSocket upgrade failed: ${String(error)}`);
            socket.destroy();
          });
        } else if (!path.startsWith(SOCKET_IO_PATH)) {
          rejectUpgrade(socket, 404, { error: HTTP_ERROR.notFound });
        }
      });
    },
    async close() {
      for (const stop of stopTimers) stop();
      await hub.close();
      // Before the transports go, so that peers on other servers hear of the seats freed here.
      await cluster?.leave(hub);
      transports?.socketIo.close();
      transports?.ws.close();
      cluster?.close();
    },
  };
}
