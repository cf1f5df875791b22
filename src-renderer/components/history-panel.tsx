import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { countOf } from '../../src-shared/format/count-of';
import {
  entrySummary,
  rememberedPeerOf,
  type HistoryEntry,
} from '../../src-shared/history/transfer-history';
import type { BackendResult } from '../backend/ferry-backend';
import { succeeded } from '../stores/notice-store';
import type { SendTarget } from '../stores/selection-store';
import { useFerryStores } from '../stores/stores-context';
import { CopyableText } from './copyable-text';
import { FileTreeList } from './file-tree-list';

/** "25 Nov 2026, 12:03" in the person's own way of writing dates. */
function finishedAt(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Where the files of a receive went, when the entry knows. */
function savedWhere(entry: HistoryEntry): string | undefined {
  if (entry.direction !== 'receive') return undefined;
  if (entry.folder !== undefined) return `Saved in ${entry.folder}`;
  if (entry.downloads?.archive !== undefined) {
    return `Saved to the browser’s downloads as ${entry.downloads.archive}`;
  }
  if (entry.downloads !== undefined) return 'Saved to the browser’s downloads';
  return undefined;
}

/**
 * The finished transfers this device keeps, newest first, with the choice to keep them and to
 * clear them. Without `title` the panel sits in something that names it already (the web
 * client's disclosure).
 */
export function HistoryPanel({ title = true }: { title?: boolean }) {
  const { history, settings } = useFerryStores();
  const entries = useStore(history, (state) => state.history);
  const current = useStore(settings, (state) => state.settings);
  const update = useStore(settings, (state) => state.update);
  const headingId = useId();
  const keepHintId = useId();
  const status = useRef<HTMLParagraphElement>(null);
  if (entries === null || current === null) return null;

  return (
    <section
      className="setting history"
      aria-labelledby={title ? headingId : undefined}
      aria-label={title ? undefined : 'History'}
      data-testid="history"
    >
      {title && (
        <h3 id={headingId} className="setting-label">
          History
        </h3>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={current.keepHistory}
          aria-describedby={keepHintId}
          onChange={(event) => void update({ keepHistory: event.target.checked })}
        />
        Keep a history of finished transfers
      </label>
      <p id={keepHintId} className="hint">
        Kept on this device only. Turning it off also clears it.
      </p>
      {entries.length === 0 ? (
        <p ref={status} className="hint" tabIndex={-1}>
          {current.keepHistory
            ? 'No transfers yet. Each one you finish is listed here.'
            : 'History is off: finished transfers are not kept.'}
        </p>
      ) : (
        <>
          <div className="history-scroll" role="region" aria-label="Past transfers" tabIndex={0}>
            <ol className="history-list">
              {entries.map((entry) => (
                <HistoryRow key={entry.id} entry={entry} />
              ))}
            </ol>
          </div>
          <ClearHistory count={entries.length} onCleared={() => status.current?.focus()} />
        </>
      )}
    </section>
  );
}

function HistoryRow({ entry }: { entry: HistoryEntry }) {
  const { backend, devices, notice, screen, selection, transfer } = useFerryStores();
  const known = useStore(devices, (state) => state.devices);
  const view = useStore(transfer, (state) => state.view);
  const device = known === null ? undefined : rememberedPeerOf(entry, known.remembered);
  const finished = view.phase === 'done' || view.phase === 'failed';
  const summaryId = useId();
  const summary = entrySummary(entry);
  const where = savedWhere(entry);
  const rest = entry.fileCount - entry.files.length;
  const canReveal = entry.direction === 'receive' && backend.capabilities.revealFiles;
  const folder = entry.folder;

  async function reveal(action: Promise<BackendResult<null>>): Promise<void> {
    succeeded(await action, notice);
  }

  /** The Send screen, its files going to this device only once chosen. */
  async function sendAgain(to: SendTarget, button: HTMLButtonElement): Promise<void> {
    if (finished && !(await transfer.getState().dismiss())) return;
    // The Send screen's word about the pin takes the focus, however far up it is.
    button.blur();
    selection.getState().sendTo({ fingerprint: to.fingerprint, name: to.name });
    screen.getState().show('send');
  }

  return (
    <li className="history-entry" aria-labelledby={summaryId}>
      <span id={summaryId} className="history-summary">
        {summary} · <time dateTime={new Date(entry.at).toISOString()}>{finishedAt(entry.at)}</time>
      </span>
      {entry.text !== undefined ? (
        <CopyableText text={entry.text} label="Text" />
      ) : (
        <>
          <FileTreeList
            files={entry.files}
            label="Files"
            className="history-files"
            scrolls={false}
            leaf={(file, name) => (
              <>
                <span className="file-name">{name}</span>
                {canReveal && file.savedPath !== undefined && (
                  <button
                    type="button"
                    className="button button--quiet"
                    aria-label={`Show in folder: ${file.name}`}
                    onClick={() => void reveal(backend.revealFile(file.savedPath ?? ''))}
                  >
                    Show in folder
                  </button>
                )}
              </>
            )}
          />
          {rest > 0 && <p className="hint">and {countOf(rest, 'other file')}</p>}
        </>
      )}
      {where !== undefined && <span className="hint history-where">{where}</span>}
      {((canReveal && folder !== undefined) || device !== undefined) && (
        <div className="actions">
          {canReveal && folder !== undefined && (
            <button
              type="button"
              className="button"
              aria-label={`Open folder: ${folder}`}
              onClick={() => void reveal(backend.openFolder(folder))}
            >
              Open folder
            </button>
          )}
          {device !== undefined && (
            <button
              type="button"
              className="button"
              aria-label={`Send again to this device: ${device.name}`}
              // One transfer at a time: a running one is finished or cancelled first.
              disabled={view.phase !== 'idle' && !finished}
              onClick={(event) => void sendAgain(device, event.currentTarget)}
            >
              Send again to this device
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** "Clear history", then a second step that says what will go before anything does. */
function ClearHistory({ count, onCleared }: { count: number; onCleared: () => void }) {
  const { history } = useFerryStores();
  const clear = useStore(history, (state) => state.clear);
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const askButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (wasConfirming.current) askButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  async function clearAll(): Promise<void> {
    setPending(true);
    const cleared = await clear();
    setPending(false);
    if (cleared) {
      // The list and this control are gone; the empty-state line takes focus once it is drawn.
      setTimeout(onCleared, 0);
    } else setConfirming(false);
  }

  if (!confirming) {
    return (
      <div className="actions">
        <button
          ref={askButton}
          type="button"
          className="button"
          onClick={() => setConfirming(true)}
        >
          Clear history
        </button>
      </div>
    );
  }
  return (
    <div className="history-confirm" role="group" aria-labelledby={questionId}>
      <p id={questionId}>
        {count === 1
          ? 'Clear the one entry in the history?'
          : `Clear all ${count.toLocaleString('en-US')} entries in the history?`}{' '}
        This cannot be undone; the files themselves stay where they are.
      </p>
      <div className="actions">
        <button
          ref={confirmButton}
          type="button"
          className="button button--danger"
          disabled={pending}
          onClick={() => void clearAll()}
        >
          Yes, clear history
        </button>
        <button type="button" className="button" onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
