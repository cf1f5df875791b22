import type { FerryBridge } from '../src-shared/ipc/contract';

declare global {
  interface Window {
    /** Exposed by the desktop app's preload; absent in a plain browser. */
    readonly ferry?: FerryBridge;
  }
}

export {};
