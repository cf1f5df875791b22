import type { ReceivingSystem } from './risky-name';

/** The system behind Node's `process.platform`. */
export function systemOfPlatform(platform: string): ReceivingSystem {
  switch (platform) {
    case 'win32':
      return 'windows';
    case 'darwin':
      return 'macos';
    case 'linux':
      return 'linux';
    case 'android':
      return 'android';
    default:
      return 'unknown';
  }
}

/**
 * The system behind a browser's user agent string. Android before Linux, and the iPhone and iPad
 * before the Mac, since each names the other too.
 */
export function systemOfUserAgent(userAgent: string): ReceivingSystem {
  if (/Windows/.test(userAgent)) return 'windows';
  if (/Android/.test(userAgent)) return 'android';
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (/Macintosh|Mac OS X/.test(userAgent)) return 'macos';
  if (/Linux|CrOS/.test(userAgent)) return 'linux';
  return 'unknown';
}
