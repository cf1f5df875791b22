import { nameFlags, type ReceivingSystem } from '../names/risky-name';
import { LISTED_NAME_DISPLAY_MAX_CHARS } from '../protocol/limits';
import type { OfferFileView } from './transfer-view';

/**
 * The listed files as the accept prompt on `system` shows them. The flags are read from the whole
 * path, before it is shortened, so a long name cannot push `.exe` or a hidden folder out of sight.
 */
export function offerFileViews(
  files: readonly { path: string; size: number }[],
  system: ReceivingSystem,
): OfferFileView[] {
  return files.map(({ path, size }) => ({
    name: shortenForDisplay(path, LISTED_NAME_DISPLAY_MAX_CHARS),
    size,
    ...nameFlags(path, system),
  }));
}

/**
 * At most `max` code points of `name`: its start and its end around an ellipsis, so both the
 * folder and the extension stay readable.
 */
export function shortenForDisplay(name: string, max: number): string {
  const points = [...name];
  if (points.length <= max) return name;
  const tail = Math.floor((max - 1) / 2);
  const head = max - 1 - tail;
  return `${points.slice(0, head).join('')}…${points.slice(points.length - tail).join('')}`;
}

/** How many of `files` are flagged, as every surface counts them: `1 hidden`, `2 executable`. */
export function flagCounts(files: readonly OfferFileView[]): string[] {
  const hidden = files.filter((file) => file.hidden).length;
  const executable = files.filter((file) => file.executable).length;
  return [
    ...(hidden > 0 ? [`${hidden} hidden`] : []),
    ...(executable > 0 ? [`${executable} executable`] : []),
  ];
}

/** The words every surface puts beside a listed file that deserves a second look. */
export function offerFileFlags(file: OfferFileView): string[] {
  const flags: string[] = [];
  if (file.hidden) flags.push('hidden');
  if (file.executable) flags.push('executable');
  return flags;
}
