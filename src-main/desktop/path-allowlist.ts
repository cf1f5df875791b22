import { resolve } from 'node:path';
import type { HistoryEntry } from '../../src-shared/history/transfer-history';
import type { TransferView } from '../../src-shared/transfer/transfer-view';

// Main trusts only the paths it handed out itself (docs/architecture.md, "Paths the person
// chose"): a path that arrives over IPC is a claim by the renderer, which may be compromised.

/**
 * Paths the person chose through main: its dialogs, the command line, "Open with" and drops
 * (read by the preload). Kept for the app's lifetime, exactly as handed out.
 */
export class ChosenPaths {
  readonly #paths = new Set<string>();

  add(paths: readonly string[]): void {
    for (const path of paths) this.#paths.add(resolve(path));
  }

  /** The paths of `requested` that were never handed out; empty when all were. */
  unchosen(requested: readonly string[]): string[] {
    return requested.filter((path) => !this.#paths.has(resolve(path)));
  }
}

/** The folder the transfer on screen saved into: the only folder the renderer may open. */
export function isOpenableFolder(view: TransferView, path: string): boolean {
  return (
    view.phase === 'done' &&
    view.direction === 'receive' &&
    view.folder !== undefined &&
    resolve(view.folder) === resolve(path)
  );
}

/** A file the transfer on screen saved: the only files the renderer may show in their folder. */
export function isRevealableFile(view: TransferView, path: string): boolean {
  if (view.phase !== 'done' || view.direction !== 'receive') return false;
  const wanted = resolve(path);
  return view.files.some(
    (file) => file.savedPath !== undefined && resolve(file.savedPath) === wanted,
  );
}

/** A folder an entry of main's own history saved into: the renderer may open it again later. */
export function isRecordedFolder(history: readonly HistoryEntry[], path: string): boolean {
  const wanted = resolve(path);
  return history.some(
    (entry) =>
      entry.direction === 'receive' &&
      entry.folder !== undefined &&
      resolve(entry.folder) === wanted,
  );
}

/** A file an entry of main's own history saved: the renderer may show it in its folder later. */
export function isRecordedFile(history: readonly HistoryEntry[], path: string): boolean {
  const wanted = resolve(path);
  return history.some(
    (entry) =>
      entry.direction === 'receive' &&
      entry.files.some(
        (file) => file.savedPath !== undefined && resolve(file.savedPath) === wanted,
      ),
  );
}
