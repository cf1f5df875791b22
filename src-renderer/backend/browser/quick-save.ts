import { autoAccepts } from '../../../src-shared/devices/auto-accept';
import type { DeviceDirectory } from '../../../src-shared/devices/remembered-devices';
import type { OfferView } from '../../../src-shared/transfer/transfer-view';
import type { SaveTarget } from './save-target';

/**
 * A remembered device's quick save in the page (docs/protocol.md, "Remembered devices"): the
 * desktop's rule (src-shared/devices/auto-accept.ts) decides whether the offer is taken unasked,
 * and the page adds one condition of its own: only into a folder the person chose. A streamed or
 * Blob download unasked would leave files in the downloads with nothing on screen to stop them,
 * so without a chosen folder the offer is asked about as usual, with `warn` saying why.
 * A text message is shown, never saved, so it is never taken this way.
 */
export function quickSaveTarget(
  offer: OfferView,
  quick: {
    directory: DeviceDirectory;
    maxBytes: number;
    /** The folder the person chose on this page, as a target; undefined while none is. */
    chosenFolder(): SaveTarget | undefined;
    warn(message: string): void;
  },
): SaveTarget | undefined {
  if (offer.textMessage === true || !autoAccepts(quick.directory, offer, quick.maxBytes)) {
    return undefined;
  }
  const folder = quick.chosenFolder();
  if (folder === undefined) quick.warn(NO_FOLDER_FOR_QUICK_SAVE);
  return folder;
}

/** Why a device set to save without asking is asked about anyway. */
export const NO_FOLDER_FOR_QUICK_SAVE =
  'This device is set to save without asking, but this page does that only into a folder you choose. Choose one with Change, and its next files go there unasked.';
