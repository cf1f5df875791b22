import type { TransferView } from './transfer-view';

/**
 * How far the files of a transfer have come, 0 to 1, while they move (a lost link being restored
 * included); undefined in every other phase. The window title, the browser tab and the taskbar
 * all show this one number.
 */
export function progressFraction(view: TransferView): number | undefined {
  if (view.phase === 'transferring')
    return fractionOf(view.progress.bytesDone, view.progress.totalBytes);
  if (view.phase === 'reconnecting') return fractionOf(view.bytesDone, view.totalBytes);
  return undefined;
}

function fractionOf(done: number, total: number): number {
  // A batch of empty files is whole the moment it moves.
  return total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
}

/** Phases in which leaving the page or closing the window would end a transfer under way. */
const UNDER_WAY: ReadonlySet<TransferView['phase']> = new Set([
  'registering',
  'waiting-for-peer',
  'connecting',
  'reconnecting',
  'awaiting-acceptance',
  'waiting-for-acceptance',
  'transferring',
]);

export function isUnderWay(view: TransferView): boolean {
  return UNDER_WAY.has(view.phase);
}
