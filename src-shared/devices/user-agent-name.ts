// A page's name until the person gives one (docs/protocol.md, "Remembered devices"): the browser
// and the system its user agent names, so that two browsers remembered by one device differ.

/** Said when the user agent names no browser Ferry knows. */
export const UNKNOWN_BROWSER_NAME = 'Web browser';

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", iOS browsers say "Mac OS X".
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:Edg|EdgA|EdgiOS)\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/(?:\b|Headless)(?:Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** "Firefox on Linux", "Chrome on Android", "Safari on iOS"; "Web browser" when unknown. */
export function deviceNameFromUserAgent(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser === undefined)
    return system === undefined ? UNKNOWN_BROWSER_NAME : `Browser on ${system}`;
  return system === undefined ? browser : `${browser} on ${system}`;
}
