import { asSentence } from '../../src-shared/format/as-sentence';
import { batchWords } from '../../src-shared/transfer/text-message-words';
import { useId } from 'react';
import { doneWithLine, shownPeerName } from '../../src-shared/devices/device-name-words';
import { useStore } from 'zustand';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { deliveredFileNotes, doneHeading } from '../../src-shared/transfer/delivered-file-notes';
import { NOT_CONFIRMED, type TransferView } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';
import type { BackendResult } from '../backend/ferry-backend';
import { succeeded } from '../stores/notice-store';
import { countOf } from '../../src-shared/format/count-of';
import { RememberDevice } from './remember-device';
import { SavedToDownloads } from './saved-to-downloads';
import { StepHeading } from './step-heading';
import { TransferTiming } from './transfer-timing';
import { ReceivedText } from './received-text';
import { FileTreeList } from './file-tree-list';
import { MAX_LISTED_FILES } from '../../src-shared/app/app-limits';

type Done = Extract<TransferView, { phase: 'done' }>;

/** What arrived, where to find it, and the way back to idle. */
export function TransferDone({ view }: { view: Done }) {
  const { backend, notice, transfer } = useFerryStores();
  const dismiss = useStore(transfer, (state) => state.dismiss);
  const headingId = useId();
  // A text message is shown inline, not listed as a saved file (docs/protocol.md, "Text messages").
  const receiving = view.direction === 'receive';
  if (receiving && view.text !== undefined) return <ReceivedText view={view} text={view.text} />;
  const canReveal = receiving && backend.capabilities.revealFiles;
  const listed = view.files.slice(0, MAX_LISTED_FILES);
  const unlisted = view.files.length - listed.length;
  const folder = view.folder;
  // The files' own sizes: `totalBytes` counts only what travelled, less what a resume found there.
  const size = view.files.reduce((sum, file) => sum + file.size, 0);
  const amount = batchWords({ fileCount: view.files.length, totalBytes: size, text: view.text });

  // A receiver that confirms batches but never did: the files left, nobody said they arrived.
  const summary = !receiving
    ? view.confirmed === false
      ? `${amount} sent ${NOT_CONFIRMED}.`
      : `${amount} arrived on the other device.`
    : folder
      ? `${amount} saved in ${folder}.`
      : `${amount} received.`;

  async function reveal(action: Promise<BackendResult<null>>): Promise<void> {
    succeeded(await action, notice);
  }

  return (
    <section className="step" aria-labelledby={headingId} data-testid="transfer-done">
      <StepHeading id={headingId}>{doneHeading(view.direction, view.verified)}</StepHeading>
      <p className="peer-name" data-testid="peer-name">
        {doneWithLine(
          view.direction,
          view.peer === undefined ? undefined : shownPeerName(view.peer),
        )}
      </p>
      <p>{asSentence(summary)}</p>
      <SavedToDownloads view={view} />
      <TransferTiming travelledBytes={view.totalBytes} />
      {view.peer !== undefined && <RememberDevice key={view.peer.fingerprint} peer={view.peer} />}
      {canReveal && folder && (
        <div className="actions">
          <button
            type="button"
            className="button"
            onClick={() => void reveal(backend.openFolder(folder))}
          >
            Open folder
          </button>
        </div>
      )}
      {view.text === undefined && (
        <FileTreeList
          files={listed}
          label={receiving ? 'Received files' : 'Delivered files'}
          leaf={(file, name) => {
            const notes = deliveredFileNotes(file);
            const { savedPath } = file;
            return (
              <>
                <span className="file-name">{name}</span>
                {notes.length > 0 && <span className="file-note">{notes.join(', ')}</span>}
                <span className="file-size">{formatBytes(file.size)}</span>
                {canReveal && savedPath && (
                  <button
                    type="button"
                    className="button button--quiet"
                    aria-label={`Show in folder: ${file.name}`}
                    onClick={() => void reveal(backend.revealFile(savedPath))}
                  >
                    Show in folder
                  </button>
                )}
              </>
            );
          }}
        />
      )}
      {unlisted > 0 && <p className="hint">and {countOf(unlisted, 'more file')}</p>}
      <div className="actions">
        <button type="button" className="button button--primary" onClick={() => void dismiss()}>
          {receiving ? 'Receive another' : 'Send more'}
        </button>
      </div>
    </section>
  );
}
