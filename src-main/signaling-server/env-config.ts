import { envFlag, envText, envUrl, envWhole, type Environment } from './env-values';
import type { SignalingServerOptions } from './options';

export interface EnvConfig {
  options: SignalingServerOptions;
  /** Settings that start but probably do not do what was meant, one line each. */
  warnings: string[];
}

function halfSet(env: Environment, a: string, b: string): string | undefined {
  return (envText(env, a) === undefined) !== (envText(env, b) === undefined)
    ? `${a} and ${b} work only together; one of them alone is ignored`
    : undefined;
}

/** The options of `npm run server`, read from its environment; throws ConfigError on a bad value. */
export function signalingOptionsFromEnv(env: Environment): EnvConfig {
  const options: SignalingServerOptions = {
    port: envWhole(env, 'PORT', 0, 65_535),
    host: envText(env, 'HOST'),
    clientUrl: envText(env, 'CLIENT_URL'),
    trustedProxyCount: envWhole(env, 'TRUSTED_PROXY_COUNT', 0),
    maxConnectionsPerIp: envWhole(env, 'MAX_CONNECTIONS_PER_IP', 1),
    maxTurnRequestsPerIp: envWhole(env, 'MAX_TURN_REQUESTS_PER_IP', 1),
    maxCodeRequestsPerIp: envWhole(env, 'MAX_CODE_REQUESTS_PER_IP', 1),
    maxFailedCodeLookups: envWhole(env, 'MAX_FAILED_CODE_LOOKUPS', 1),
    maxReportBytes: envWhole(env, 'MAX_REPORT_BYTES', 1),
    maxActiveCodes: envWhole(env, 'MAX_ACTIVE_CODES', 1),
    redisUrl: envUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    turnSecret: envText(env, 'TURN_SECRET'),
    turnDomain: envText(env, 'TURN_DOMAIN'),
    turnProviderKeyId: envText(env, 'TURN_PROVIDER_KEY_ID'),
    turnProviderApiToken: envText(env, 'TURN_PROVIDER_API_TOKEN'),
    turnProviderUrl: envUrl(env, 'TURN_PROVIDER_URL', ['https:', 'http:']),
    presence: envFlag(env, 'PRESENCE'),
  };
  const clientUrl = options.clientUrl;
  const warnings = [
    halfSet(env, 'TURN_SECRET', 'TURN_DOMAIN'),
    halfSet(env, 'TURN_PROVIDER_KEY_ID', 'TURN_PROVIDER_API_TOKEN'),
    clientUrl !== undefined && (clientUrl.includes(',') || clientUrl.endsWith('/'))
      ? `CLIENT_URL "${clientUrl}" matches no browser origin: give exactly one origin, without a trailing slash`
      : undefined,
  ].filter((warning): warning is string => warning !== undefined);
  return { options, warnings };
}
