import { relative, resolve, sep } from 'node:path';

// The renderer is served from a privileged scheme of its own rather than file://, where 'self'
// in a CSP would cover every local file (docs/architecture.md, "The desktop shell").

export const APP_SCHEME = 'ferry';
const APP_HOST = 'app';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Stricter than the page's own meta CSP, which the web client shares: the desktop window loads
 * nothing but its own files, talks to main only over IPC, and has no frames or workers.
 */
export const DESKTOP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'none'",
  "worker-src 'none'",
  "child-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** A page of Ferry's own: anything else is another site, or a local file. */
export function isAppUrl(url: string | undefined): boolean {
  const parsed = url === undefined ? undefined : parse(url);
  return parsed?.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
}

/**
 * The file of the built renderer that an app URL names, or undefined for anything outside the
 * renderer folder, however the path is spelled or encoded.
 */
export function rendererFileFor(rendererRoot: string, url: string): string | undefined {
  if (!isAppUrl(url)) return undefined;
  const { pathname } = new URL(url);
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  const root = resolve(rendererRoot);
  const file = resolve(root, `.${path}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || inside.startsWith(sep)) return undefined;
  return file;
}
