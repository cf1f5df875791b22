import { err, ok } from '../../src-shared/ipc/result';
import type { BackendResult, FerryBackend } from './ferry-backend';

export const ERR_UNAVAILABLE = 'ERR_UNAVAILABLE';

export const UNAVAILABLE_MESSAGE =
  'The browser version of Ferry is not available in this build; use the Ferry desktop app to send and receive files.';

/** Stands in for the browser peer until it exists: every action says so instead of failing silently. */
export function createUnavailableBackend(): FerryBackend {
  const refuse = (): Promise<BackendResult<never>> =>
    Promise.resolve(err(ERR_UNAVAILABLE, UNAVAILABLE_MESSAGE));
  return {
    surface: 'browser',
    capabilities: { lanRoom: false, chooseDestination: false, revealFiles: false, settings: false },
    snapshot: refuse,
    subscribe: () => ok(null),
    addDropped: refuse,
    pickFiles: refuse,
    pickFolder: refuse,
    startSend: refuse,
    startReceive: refuse,
    answerOffer: refuse,
    chooseDownloadFolder: refuse,
    cancel: refuse,
    dismiss: refuse,
    updateSettings: refuse,
    setLanRoom: refuse,
    openFolder: refuse,
    revealFile: refuse,
  };
}
