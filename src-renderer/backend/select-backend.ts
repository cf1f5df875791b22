import type { FerryBridge } from '../../src-shared/ipc/contract';
import { createDesktopBackend } from './desktop-backend';
import type { FerryBackend } from './ferry-backend';

/**
 * Inside the desktop app the preload has put the bridge on `window`; anywhere else it is absent.
 * The browser backend is loaded only then, with a dynamic import(), so that Vite puts it in a
 * chunk of its own and the desktop renderer never fetches it (ESLint forbids static imports of
 * it elsewhere).
 */
export async function selectBackend(host: { readonly ferry?: FerryBridge }): Promise<FerryBackend> {
  if (host.ferry) return createDesktopBackend(host.ferry);
  const { createBrowserBackend } = await import('./browser/browser-backend');
  return createBrowserBackend();
}
