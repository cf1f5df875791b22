import { relative, sep } from 'node:path';
import {
  createReceiver,
  type Offer,
  type PeerVersion,
  type ReceiverAction,
  type ReceiverEvent,
  type ReceiverMachine,
  type ReceiverTimer,
  type RemedySurface,
} from '../../src-shared/protocol';
import type { DeliveredFileView, OfferView } from '../../src-shared/transfer/transfer-view';
import { DriverTimers } from './driver-timers';
import { EngineError } from './engine-error';
import type { EngineTimeouts } from './engine-options';
import { PartFile } from './part-file';
import type { PeerLink } from './peer-link';
import { ProgressMeter } from './progress-meter';
import type { TransferControl } from './transfer';

export interface ReceiveSessionConfig {
  link: PeerLink;
  destination: string;
  local: PeerVersion;
  remedySurface: RemedySurface;
  timeouts: EngineTimeouts;
  control: TransferControl;
  onOffer: ((offer: OfferView) => Promise<boolean>) | undefined;
  /** Called once after the batch is complete, with the bytes received. */
  onComplete: (bytes: number) => void;
}

/**
 * Drives the receiver machine over an open link. Disk work (open, write, commit, discard) and
 * everything after it run strictly in the machine's order on one queue, so an ack goes out only
 * once its `.part` exists and `received` only once every file has its final name. Resolves once
 * the link is closed and the queue is empty.
 */
export function runReceiveSession(config: ReceiveSessionConfig): Promise<void> {
  return new ReceiveSession(config).finished;
}

interface OpenFile {
  part: PartFile;
  fileSize: number | null;
}

class ReceiveSession {
  readonly finished: Promise<void>;
  readonly #config: ReceiveSessionConfig;
  readonly #link: PeerLink;
  readonly #machine: ReceiverMachine;
  readonly #timers: DriverTimers<ReceiverTimer>;
  readonly #progress: ProgressMeter;
  readonly #files = new Map<number, OpenFile>();
  readonly #saved: DeliveredFileView[] = [];
  #queue: Promise<void> = Promise.resolve();
  /** Set once the disk failed outside any file the machine still tracks; the queue stops there. */
  #diskFailure: EngineError | undefined;
  #linkClosed!: () => void;

  constructor(config: ReceiveSessionConfig) {
    this.#config = config;
    const { link, timeouts, control } = config;
    this.#link = link;
    this.#machine = createReceiver({
      surface: 'native',
      local: config.local,
      remedySurface: config.remedySurface,
      askBeforeAccepting: config.onOffer !== undefined,
    });
    this.#timers = new DriverTimers<ReceiverTimer>(
      {
        'first-data': timeouts.firstData,
        'no-progress': timeouts.noProgress,
        teardown: timeouts.teardownGrace,
      },
      (timer) => this.#handle({ type: 'timer-fired', timer }),
    );
    this.#progress = new ProgressMeter((progress) =>
      control.update({ phase: 'transferring', progress }),
    );
    const closed = new Promise<void>((resolve) => (this.#linkClosed = resolve));
    this.finished = closed.then(() => this.#queue);

    let frames = 0; let afterClose = 0; let closedAt = false;
    link.on('frame', (frame) => { frames++; if (closedAt) { afterClose++; (globalThis as any).TRACE?.push(`frame after close ${afterClose} ${frame.kind}`);} this.#handle({ type: 'frame', frame }); });
    link.on('closed', () => { closedAt = true; (globalThis as any).TRACE?.push(`closed after ${frames} frames, state ${JSON.stringify(this.#machine.state)}`); });
    link.on('closed', () => this.#onLinkClosed());
    const onCancel = () => this.#handle({ type: 'cancel' });
    control.cancelled.addEventListener('abort', onCancel, { once: true });
    this.finished.then(() => control.cancelled.removeEventListener('abort', onCancel));

    if (control.cancelled.aborted) onCancel();
    else if (link.isClosed) this.#onLinkClosed();
    else this.#handle({ type: 'channel-open' });
  }

  #handle(event: ReceiverEvent): void {
    for (const action of this.#machine.handle(event)) this.#carryOut(action);
  }

  #carryOut(action: ReceiverAction): void {
    switch (action.type) {
      case 'set-timer':
      case 'clear-timer':
        this.#timers.apply(action);
        return;
      case 'progress': {
        const fileName = this.#machine.state.phase === 'receiving' ? this.#machine.state.path : '';
        this.#progress.record({
          fileIndex: action.index + 1,
          fileCount: action.total,
          fileName,
          fileBytes: action.fileBytes,
          fileSize: action.fileSize ?? action.fileBytes,
          bytesDone: action.bytesDone,
          totalBytes: action.totalBytes,
        });
        return;
      }
      case 'ask-accept':
        this.#ask(action.offer);
        return;
      case 'open-part':
        this.#open(action.index, action.path, action.fileSize);
        return;
      case 'write':
        this.#enqueue(async () => {
          const file = this.#files.get(action.index);
          if (file === undefined) return;
          try {
            await file.part.write(action.bytes);
          } catch (error) {
            this.#handle({ type: 'write-failed', detail: describe(error) });
            return;
          }
          this.#handle({ type: 'bytes-written', bytes: action.bytes.byteLength });
        });
        return;
      case 'commit':
        this.#commit(action.index);
        return;
      case 'discard':
        this.#enqueue(async () => {
          const file = this.#files.get(action.index);
          this.#files.delete(action.index);
          await file?.part.discard();
        });
        return;
      case 'send':
        this.#enqueue(async () => {
          this.#link.send(action.frame);
        });
        return;
      case 'complete':
        this.#enqueue(async () => {
          this.#config.control.update({
            phase: 'done',
            files: [...this.#saved],
            totalBytes: action.bytes,
            folder: this.#config.destination,
          });
          this.#config.onComplete(action.bytes);
        });
        return;
      case 'fail':
        this.#enqueue(async () => {
          this.#config.control.update({ phase: 'failed', code: action.code, message: action.message });
        });
        return;
      case 'close':
        this.#enqueue(async () => {
          if (action.flushMs > 0) await this.#flush(this.#config.timeouts.abortFlush);
          this.#link.close(this.#config.timeouts.abortFlush);
        });
        return;
    }
  }

  #ask(offer: Offer): void {
    const view: OfferView = {
      firstFileName: offer.fileName,
      fileCount: offer.total,
      totalBytes: offer.totalBytes,
    };
    if (offer.sender.ver !== undefined) view.senderVersion = offer.sender.ver;
    this.#config.control.update({ phase: 'awaiting-acceptance', offer: view });
    const ask = this.#config.onOffer ?? (async () => true);
    ask(view).then(
      (accepted) => this.#handle({ type: accepted ? 'accepted' : 'declined' }),
      () => this.#handle({ type: 'declined' }),
    );
  }

  #open(index: number, path: string, fileSize: number | null): void {
    this.#enqueue(async () => {
      try {
        const part = await PartFile.create(this.#config.destination, path);
        this.#files.set(index, { part, fileSize });
      } catch (error) {
        this.#handle({ type: 'write-failed', detail: describe(error) });
      }
    });
  }

  #commit(index: number): void {
    this.#enqueue(async () => {
      const file = this.#files.get(index);
      this.#files.delete(index);
      if (file === undefined) return;
      try {
        const savedPath = await file.part.commit(file.fileSize);
        const name = relative(this.#config.destination, savedPath).split(sep).join('/');
        this.#saved.push({ name, size: file.part.written, savedPath });
      } catch (error) {
        // The machine has moved past this file, so the failure is the driver's to report.
        await file.part.discard();
        this.#diskFailure = EngineError.withDetail('ERR_DISK', describe(error));
      }
    });
  }

  /** Runs `step` after everything queued before it; after a disk failure nothing more runs. */
  #enqueue(step: () => Promise<void>): void {
    this.#queue = this.#queue.then(async () => {
      if (this.#diskFailure !== undefined) return;
      try {
        await step();
      } catch (error) {
        this.#diskFailure = EngineError.withDetail('ERR_DISK', describe(error));
      }
      if (this.#diskFailure !== undefined) await this.#abandon(this.#diskFailure);
    });
  }

  async #abandon(failure: EngineError): Promise<void> {
    this.#config.control.update({ phase: 'failed', code: failure.code, message: failure.message });
    await Promise.all([...this.#files.values()].map((file) => file.part.discard()));
    this.#files.clear();
    this.#timers.clearAll();
    this.#link.close(0);
  }

  async #flush(ms: number): Promise<void> {
    this.#link.setBufferedAmountLowThreshold(0);
    if (this.#link.bufferedAmount() === 0 || this.#link.isClosed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#link.off('buffered-amount-low', done);
        this.#link.off('closed', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#link.on('buffered-amount-low', done);
      this.#link.on('closed', done);
    });
  }

  #onLinkClosed(): void {
    this.#handle({ type: 'channel-closed' });
    this.#enqueue(async () => {
      this.#timers.clearAll();
      this.#link.close(0);
    });
    this.#linkClosed();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
