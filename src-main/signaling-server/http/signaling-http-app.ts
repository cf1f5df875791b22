import express, { type Express, type Request } from 'express';
import * as v from 'valibot';
import {
  CODE_OUTCOME_HEADER,
  CODE_PATH,
  HEALTH_PATH,
  STATS_PATH,
  STATS_REPORT_PATH,
  TURN_CREDENTIALS_PATH,
} from '../../../src-shared/signaling/endpoints';
import {
  HTTP_ERROR,
  type CodeResolution,
  type CodeResponse,
  type HealthStatus,
  type IceServerEntry,
  type RootStatus,
  type StatsTotal,
} from '../../../src-shared/signaling/http-api';
import { MAX_REQUEST_BODY_BYTES } from '../../../src-shared/signaling/limits';
import { SECOND_MS } from '../../../src-shared/time-units';
import { clientLimitKey } from '../access/client-ip';
import type { FailureBudget } from '../access/failure-budget';
import type { OriginPolicy } from '../access/origin-policy';
import type { RateLimiter } from '../access/rate-limiter';
import type { CodeRegistrar } from '../codes/code-registrar';
import type { IceServerList } from '../ice/ice-server-list';
import type { LogSink } from '../log-sink';
import type { Clock } from '../schedule';
import type { ByteCounter } from '../stats/byte-counter';
import { cors } from './cors';
import { finalErrorHandler } from './final-error-handler';
import { perIpLimit } from './per-ip-limit';
import { CodeReleaseSchema, CodeRequestSchema, statsReportSchema } from './request-bodies';
import type { UnhealthyStatus } from './unhealthy-status';

export interface SignalingHttpDeps {
  origins: OriginPolicy;
  trustedProxyCount: number;
  turnLimit: RateLimiter;
  codeLimit: RateLimiter;
  /** Failed code lookups of all clients together; once spent, every lookup is refused. */
  failedLookups: FailureBudget;
  reportLimit: RateLimiter;
  iceServers: IceServerList;
  codes: CodeRegistrar;
  counter: ByteCounter;
  /** Why the server cannot do its job right now (Redis lost, in a cluster); undefined when it can. */
  healthProblem(): string | undefined;
  maxReportBytes: number;
  now: Clock;
  log: LogSink;
}

/**
 * The seven HTTP endpoints of the spec, and Ferry's code release (docs/protocol.md, "Dead
 * codes"), JSON on every path, failures included.
 */
export function signalingHttpApp(deps: SignalingHttpDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const limitKeyOf = (request: Request) =>
    clientLimitKey(
      request.socket.remoteAddress,
      request.headers['x-forwarded-for'],
      deps.trustedProxyCount,
    );
  const codeLimit = perIpLimit(deps.codeLimit, limitKeyOf, HTTP_ERROR.tooManyRequests);
  const reportSchema = statsReportSchema(deps.maxReportBytes);

  app.use(cors(deps.origins));
  app.use(express.json({ limit: MAX_REQUEST_BODY_BYTES }));

  app.get('/', (_request, response) => {
    const body: RootStatus = { status: 'ok', timestamp: new Date(deps.now()).toISOString() };
    response.json(body);
  });

  app.get(HEALTH_PATH, (_request, response) => {
    const reason = deps.healthProblem();
    if (reason !== undefined) {
      const body: UnhealthyStatus = { status: 'unhealthy', uptime: process.uptime(), reason };
      response.status(503).json(body);
      return;
    }
    const body: HealthStatus = { status: 'healthy', uptime: process.uptime() };
    response.json(body);
  });

  app.get(
    TURN_CREDENTIALS_PATH,
    perIpLimit(deps.turnLimit, limitKeyOf, HTTP_ERROR.tooManyRequests),
    async (_request, response) => {
      const body: IceServerEntry[] = await deps.iceServers.current();
      response.json(body);
    },
  );

  app.post(CODE_PATH, codeLimit, async (request, response) => {
    const codeRequest = v.safeParse(CodeRequestSchema, request.body);
    if (!codeRequest.success) {
      response.status(400).json({ error: HTTP_ERROR.invalidRoomId });
      return;
    }
    const registration = await deps.codes.register(codeRequest.output.roomId);
    if (registration.kind === 'busy') {
      response.status(503).json({ error: HTTP_ERROR.serverBusy });
      return;
    }
    const body: CodeResponse = { code: registration.code };
    response.json(body);
  });

  // The code is matched exactly as received: the clients, not the server, lowercase and trim.
  app.get<{ code: string }>(`${CODE_PATH}/:code`, codeLimit, async (request, response) => {
    // A spent budget refuses hits too: were only misses refused, a guesser would keep guessing
    // and still be told of every hit (docs/protocol.md, "Short codes").
    const spentFor = await deps.failedLookups.spentFor();
    if (spentFor !== undefined) {
      response.setHeader('Retry-After', String(Math.max(1, Math.ceil(spentFor / SECOND_MS))));
      response.status(429).json({ error: HTTP_ERROR.tooManyRequests });
      return;
    }
    const held = await deps.codes.resolve(request.params.code);
    if (held === undefined) {
      await deps.failedLookups.spend();
      response.status(404).json({ error: HTTP_ERROR.codeNotFound });
      return;
    }
    // The answer stays the spec's; how a released code ended rides in a header only Ferry reads,
    // exposed to a page on another origin.
    if (held.outcome !== undefined) {
      response.setHeader(CODE_OUTCOME_HEADER, held.outcome);
      response.setHeader('Access-Control-Expose-Headers', CODE_OUTCOME_HEADER);
    }
    const body: CodeResolution = { roomId: held.roomId };
    response.json(body);
  });

  // Only the holder of the room id, the sender or its receiver, can release a code. An unknown
  // code and another room's answer alike, so the endpoint tells a guesser nothing.
  app.post<{ code: string }>(`${CODE_PATH}/:code/release`, codeLimit, async (request, response) => {
    const release = v.safeParse(CodeReleaseSchema, request.body);
    if (!release.success) {
      response.status(400).json({ error: HTTP_ERROR.invalidRelease });
      return;
    }
    const { roomId, outcome } = release.output;
    if (!(await deps.codes.release(request.params.code, roomId, outcome))) {
      response.status(404).json({ error: HTTP_ERROR.codeNotFound });
      return;
    }
    response.status(204).end();
  });

  app.get(STATS_PATH, (_request, response) => {
    const body: StatsTotal = { totalBytes: deps.counter.total };
    response.json(body);
  });

  app.post(
    STATS_REPORT_PATH,
    perIpLimit(deps.reportLimit, limitKeyOf, HTTP_ERROR.tooManyReports),
    async (request, response) => {
      const report = v.safeParse(reportSchema, request.body);
      if (!report.success) {
        response.status(400).json({ error: HTTP_ERROR.invalidByteCount });
        return;
      }
      const body: StatsTotal = { totalBytes: await deps.counter.add(report.output.bytes) };
      response.json(body);
    },
  );

  app.use((_request, response) => {
    response.status(404).json({ error: HTTP_ERROR.notFound });
  });
  app.use(finalErrorHandler(deps.log));
  return app;
}
