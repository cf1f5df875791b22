import {
  ConfigError,
  envFlag,
  envText,
  envUrl,
  envWhole,
  signalingOptionsFromEnv,
  type Environment,
} from '../signaling-server';
import { ferryDataFolder } from '../devices/data-folder';
import type { WebHostOptions } from './start-web-host';

const COMMIT = /^[0-9a-f]{40}$/i;

export interface WebHostEnvConfig {
  options: WebHostOptions;
  warnings: string[];
}

/**
 * The options of the standalone web-client host: PORT, HOST, WEB_ROOT, SOCKET_URL, COMMIT_SHA,
 * WITH_SIGNALING=1 to mount a signaling server configured by the signaling variables, and
 * HTTPS=1 to serve HTTPS with a certificate kept in TLS_DIR, else FERRY_HOME, else the
 * platform's configuration folder (docs/architecture.md, "The LAN room over HTTPS").
 */
export function webHostOptionsFromEnv(env: Environment): WebHostEnvConfig {
  const commit = envText(env, 'COMMIT_SHA');
  if (commit !== undefined && !COMMIT.test(commit)) {
    throw new ConfigError(`COMMIT_SHA must be a full 40-character commit hash, not "${commit}"`);
  }
  const options: WebHostOptions = {
    port: envWhole(env, 'PORT', 0, 65_535),
    host: envText(env, 'HOST'),
    root: envText(env, 'WEB_ROOT'),
    socketUrl: envUrl(env, 'SOCKET_URL', ['https:', 'http:']),
    commit: commit ?? null,
    https: envFlag(env, 'HTTPS')
      ? { certificateFolder: envText(env, 'TLS_DIR') ?? ferryDataFolder(env) }
      : undefined,
  };
  if (!envFlag(env, 'WITH_SIGNALING')) return { options, warnings: [] };
  const signaling = signalingOptionsFromEnv(env);
  const { port: _port, host: _host, ...rest } = signaling.options;
  return { options: { ...options, signaling: rest }, warnings: signaling.warnings };
}
