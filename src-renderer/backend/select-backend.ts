import type { FerryBridge } from '../../src-shared/ipc/contract';
import { createBrowserBackend } from './browser/browser-backend';
import { createDesktopBackend } from './desktop-backend';
import type { FerryBackend } from './ferry-backend';

/** Inside the desktop app the preload has put the bridge on `window`; anywhere else it is absent. */
export function selectBackend(host: { readonly ferry?: FerryBridge }): FerryBackend {
  return host.ferry ? createDesktopBackend(host.ferry) : createBrowserBackend();
}
