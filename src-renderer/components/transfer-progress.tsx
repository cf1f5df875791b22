import { textMessageWords } from '../../src-shared/transfer/text-message-words';
import { useId } from 'react';
import { movingLine, shownPeerName } from '../../src-shared/devices/device-name-words';
import { formatBytes, formatSpeed } from '../../src-shared/format/format-bytes';
import { formatDuration } from '../../src-shared/format/format-duration';
import type { ProgressView, TransferView } from '../../src-shared/transfer/transfer-view';
import { CancelTransfer } from './cancel-transfer';
import { PeerCheckLine } from './peer-check-line';
import { StepHeading } from './step-heading';

type Transferring = Extract<TransferView, { phase: 'transferring' }>;

// An empty file is complete the moment it starts.
const share = (done: number, size: number): number => (size > 0 ? Math.min(done / size, 1) : 1);

const CONSEQUENCE = {
  send: 'Cancelling stops the transfer. The partial file is discarded on the other device; files that already arrived stay there.',
  receive:
    'Cancelling stops the transfer. The partial file is discarded; files that already arrived are kept.',
} as const;

/** Between peers that agreed to resume, what arrived of the file under way is kept too. */
const CONSEQUENCE_KEPT = {
  send: 'Cancelling stops the transfer. The other device keeps what arrived, so sending the same files again picks up where this left off.',
  receive:
    'Cancelling stops the transfer. What arrived is kept, so the same files sent again pick up where this left off.',
} as const;

const percentOf = (done: number, size: number): string =>
  `${Math.floor(share(done, size) * 100)} %`;

/**
 * Both sides' progress: the file under way and the whole batch (one bar with a percentage when
 * the batch is one file), speed and time left.
 */
export function TransferProgress({ view }: { view: Transferring }) {
  const { progress } = view;
  const headingId = useId();
  return (
    <section className="step" aria-labelledby={headingId} data-testid="transfer-progress">
      <StepHeading id={headingId}>{movingLine(view.direction, shownPeerName(view))}</StepHeading>
      {progress.fileCount === 1 ? (
        <OneFile
          progress={progress}
          name={view.text === undefined ? progress.fileName : textMessageWords(view.text)}
        />
      ) : (
        <EachAndAll progress={progress} />
      )}
      {view.peerCheck !== undefined && <PeerCheckLine check={view.peerCheck} />}
      <p className="rate">
        {formatSpeed(progress.bytesPerSecond)} ·{' '}
        {progress.etaSeconds === undefined
          ? 'estimating time left'
          : `about ${formatDuration(progress.etaSeconds)} left`}
      </p>
      <CancelTransfer
        consequence={
          (progress.keepsPartial === true ? CONSEQUENCE_KEPT : CONSEQUENCE)[view.direction]
        }
      />
    </section>
  );
}

/** A batch of one file: its name, how much of it is here, and one bar. */
function OneFile({ progress, name }: { progress: ProgressView; name: string }) {
  return (
    <div className="meter" data-testid="batch-meter">
      <p className="meter-label">
        <span className="file-name">{name}</span>
        <span>
          {formatBytes(progress.bytesDone)} of {formatBytes(progress.totalBytes)} ·{' '}
          {percentOf(progress.bytesDone, progress.totalBytes)}
        </span>
      </p>
      <progress
        aria-label="Progress"
        value={share(progress.bytesDone, progress.totalBytes)}
        max={1}
      />
    </div>
  );
}

/** A batch of several files: the file under way, then all of them. */
function EachAndAll({ progress }: { progress: ProgressView }) {
  return (
    <>
      <div className="meter">
        <p className="meter-label">
          <span>
            File {progress.fileIndex} of {progress.fileCount}:{' '}
            <span className="file-name">{progress.fileName}</span>
          </span>
          <span>
            {formatBytes(progress.fileBytes)} of {formatBytes(progress.fileSize)}
          </span>
        </p>
        <progress
          aria-label="Current file"
          value={share(progress.fileBytes, progress.fileSize)}
          max={1}
        />
      </div>
      <div className="meter" data-testid="batch-meter">
        <p className="meter-label">
          <span>All files</span>
          <span>
            {formatBytes(progress.bytesDone)} of {formatBytes(progress.totalBytes)}
          </span>
        </p>
        <progress
          aria-label="All files"
          value={share(progress.bytesDone, progress.totalBytes)}
          max={1}
        />
      </div>
    </>
  );
}
