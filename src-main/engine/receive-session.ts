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
import { prepareDestination } from './destination-folder';
import { toFailure } from './engine-error';
import type { EngineTimeouts, OfferAnswer } from './engine-options';
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
  onOffer: ((offer: OfferView) => Promise<OfferAnswer>) | undefined;
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
  /** Where files land: the configured folder, or the one the person chose when accepting. */
  #destination: string;

  constructor(config: ReceiveSessionConfig) {
    this.#config = config;
    this.#destination = config.destination;
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
    this.finished = closed.then(() => this.#settled()).then(() => link.released);

    link.on('frame', (frame) => this.#handle({ type: 'frame', frame }));
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
      case 'write': {
        const { index, bytes } = action;
        this.#enqueue(async () => this.#write(index, bytes));
        return;
      }
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
            folder: this.#destination,
          });
          this.#config.onComplete(action.bytes);
        });
        return;
      case 'fail':
        this.#enqueue(async () => {
          this.#config.control.update({
            phase: 'failed',
            code: action.code,
            message: action.message,
          });
        });
        return;
      case 'close':
        this.#enqueue(async () => {
          const { abortFlush } = this.#config.timeouts;
          // An abort reason may still be on its way; the sender closing its side says it landed.
          if (action.flushMs > 0) await this.#link.drained(abortFlush);
          this.#link.close(action.flushMs > 0 ? abortFlush : 0);
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
      (answer) => this.#answer(answer),
      () => this.#handle({ type: 'declined' }),
    );
  }

  async #answer(answer: OfferAnswer): Promise<void> {
    if (typeof answer === 'object') {
      try {
        this.#destination = await prepareDestination(answer.destination);
      } catch (error) {
        // Nothing was acknowledged yet: decline, and say why rather than "declined".
        this.#config.control.update({ phase: 'failed', ...toFailure(error, 'ERR_DISK') });
        this.#handle({ type: 'declined' });
        return;
      }
    }
    this.#handle({ type: answer === false ? 'declined' : 'accepted' });
  }

  /**
   * Hands `bytes` to the file in order without waiting for the disk: the file batches what piles
   * up, and copies the chunk so that nothing holds it afterwards.
   */
  #write(index: number, bytes: Uint8Array): void {
    const file = this.#files.get(index);
    if (file === undefined) return;
    const count = bytes.byteLength;
    file.part.write(bytes).then(
      () => this.#handle({ type: 'bytes-written', bytes: count }),
      (error: unknown) => this.#handle({ type: 'write-failed', detail: describe(error) }),
    );
  }

  #open(index: number, path: string, fileSize: number | null): void {
    this.#enqueue(async () => {
      try {
        const part = await PartFile.create(this.#destination, path);
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
        const name = relative(this.#destination, savedPath).split(sep).join('/');
        this.#saved.push({ name, size: file.part.written, savedPath });
      } catch (error) {
        // The machine has moved past this file, so the failure is the driver's to report.
        await file.part.discard();
        this.#diskFailure = EngineError.withDetail('ERR_DISK', describe(error));
      }
    });
  }

  /** Waits until the queue is empty, including steps queued while waiting. */
  async #settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.#queue;
      await seen;
    } while (seen !== this.#queue);
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
