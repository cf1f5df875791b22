import { formatBytes, formatSpeed } from '../../src-shared/format/format-bytes';
import { formatDuration } from '../../src-shared/format/format-duration';
import type { ProgressView } from '../../src-shared/transfer/transfer-view';
import { PLAIN_LINE_INTERVAL_MS } from '../../src-shared/app/app-limits';

export interface ProgressOutput {
  write(text: string): void;
  /** A terminal gets one live bar; anything else gets plain log lines. */
  isTTY: boolean;
  columns: number;
}

const BAR_MIN_WIDTH = 10;

/** Shows a running transfer: a redrawn bar on a terminal, occasional lines elsewhere. */
export class ProgressDisplay {
  readonly #out: ProgressOutput;
  readonly #now: () => number;
  readonly #verb: string;
  #lastFile = -1;
  #lastLineAt = Number.NEGATIVE_INFINITY;
  #barShown = false;
  #lastStatus: string | undefined;

  constructor(out: ProgressOutput, verb: 'Sending' | 'Receiving', now: () => number = Date.now) {
    this.#out = out;
    this.#verb = verb;
    this.#now = now;
  }

  show(progress: ProgressView): void {
    if (progress.fileIndex !== this.#lastFile) {
      this.#lastFile = progress.fileIndex;
      const resumed = progress.fileResumedBytes ?? 0;
      const kept = resumed > 0 ? `; resuming, ${formatBytes(resumed)} already there` : '';
      this.line(
        `${this.#verb} ${progress.fileName} (${progress.fileIndex}/${progress.fileCount}, ${formatBytes(progress.fileSize)}${kept})`,
      );
    }
    if (this.#out.isTTY) {
      this.#out.write(`\r${this.#bar(progress)}\u001b[K`);
      this.#barShown = true;
    } else if (this.#now() - this.#lastLineAt >= PLAIN_LINE_INTERVAL_MS) {
      this.#lastLineAt = this.#now();
      this.#out.write(`${summary(progress)}\n`);
    }
  }

  /**
   * A line saying where the transfer stands, printed only when it says something new: a state
   * that is published again (as connecting is, by the engine and then the flow) prints once.
   */
  status(text: string): void {
    if (text === this.#lastStatus) return;
    this.#lastStatus = text;
    this.line(text);
  }

  /** A line of its own, above the bar when one is showing. */
  line(text: string): void {
    if (this.#barShown) this.#out.write('\r\u001b[K');
    this.#barShown = false;
    this.#out.write(`${text}\n`);
  }

  #bar(progress: ProgressView): string {
    const text = summary(progress);
    const width = Math.max(BAR_MIN_WIDTH, Math.min(40, this.#out.columns - text.length - 4));
    const filled = Math.round(width * fraction(progress));
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}`;
  }
}

function fraction(progress: ProgressView): number {
  return progress.totalBytes === 0 ? 1 : Math.min(1, progress.bytesDone / progress.totalBytes);
}

function summary(progress: ProgressView): string {
  const percent = Math.floor(fraction(progress) * 100);
  const eta =
    progress.etaSeconds === undefined ? '' : `, ${formatDuration(progress.etaSeconds)} left`;
  return `${percent}% ${formatBytes(progress.bytesDone)} of ${formatBytes(progress.totalBytes)}, ${formatSpeed(progress.bytesPerSecond)}${eta}`;
}
