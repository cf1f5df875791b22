import envPaths from 'env-paths';

/**
 * Where the command line and the standalone web host keep what they keep (this device's
 * certificate, remembered devices, a LAN room's HTTPS certificate): $FERRY_HOME, else the
 * platform's configuration folder (~/.config/ferry on Linux).
 */
export function ferryDataFolder(env: NodeJS.ProcessEnv): string {
  return env.FERRY_HOME || envPaths('ferry', { suffix: '' }).config;
}
