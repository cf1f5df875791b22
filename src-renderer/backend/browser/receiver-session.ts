import type { Failure } from '../../../src-shared/protocol/error-codes';
import {
  createReceiver,
  type Offer,
  type ReceiverAction,
  type ReceiverConfig,
  type ReceiverEvent,
  type ReceiverMachine,
  type ReceiverState,
  type ReceiverTimer,
} from '../../../src-shared/protocol/receiver';
import { frameOf, sendFrame } from './channel-frames';
import { closeLink } from './link-teardown';
import { MachineTimers } from './machine-timers';
import type { PeerLink } from './peer-connection';
import type { SaveTarget } from './save-target';

export interface SavedFile {
  name: string;
  size: number;
}

export type ReceiveOutcome =
  { ok: true; files: SavedFile[]; bytes: number } | { ok: false; failure: Failure };

export interface ReceiveProgress {
  index: number;
  total: number;
  fileName: string;
  fileBytes: number;
  fileSize: number | null;
  bytesDone: number;
  totalBytes: number;
}

export interface ReceiverObserver {
  offer(offer: Offer): void;
  progress(progress: ReceiveProgress): void;
  finished(outcome: ReceiveOutcome): void;
}

/**
 * Drives the protocol's receiver machine over an open data channel. Storage calls run strictly
 * in order on the save target chosen when the person accepts; a storage failure goes back to
 * the machine, which discards the file and tells the sender.
 */
export class ReceiverSession {
  readonly #link: PeerLink;
  readonly #machine: ReceiverMachine;
  readonly #observer: ReceiverObserver;
  readonly #timers: MachineTimers<ReceiverTimer>;
  readonly #saved: SavedFile[] = [];
  readonly #paths = new Map<number, string>();
  readonly #sizes = new Map<number, number>();
  #target: SaveTarget | undefined;
  #storage: Promise<void> = Promise.resolve();
  /** Why storage failed, once it has: nothing more is written. */
  #storageFailure: string | undefined;

  constructor(link: PeerLink, config: ReceiverConfig, observer: ReceiverObserver) {
    this.#link = link;
    this.#machine = createReceiver(config);
    this.#observer = observer;
    this.#timers = new MachineTimers((timer) => this.#feed({ type: 'timer-fired', timer }));
  }

  get state(): ReceiverState {
    return this.#machine.state;
  }

  start(): void {
    const { channel, pc } = this.#link;
    channel.addEventListener('message', ({ data }) => {
      const frame = frameOf(data);
      if (frame) this.#feed({ type: 'frame', frame });
    });
    channel.addEventListener('close', () => this.#closed());
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'failed') this.#closed();
    });
    if (channel.readyState !== 'open') this.#closed();
    else this.#feed({ type: 'channel-open' });
  }

  /** The person's answer to the offer; accepting names where the files go. */
  answer(accept: boolean, target?: SaveTarget): void {
    if (accept && target === undefined) throw new Error('accepting needs a save target');
    this.#target = target;
    this.#feed({ type: accept ? 'accepted' : 'declined' });
  }

  cancel(): void {
    this.#feed({ type: 'cancel' });
  }

  /** Tears the connection down whatever state the transfer is in (leaving a finished one). */
  close(): void {
    this.#timers.clearAll();
    this.#link.close();
  }

  #closed(): void {
    this.#feed({ type: 'channel-closed' });
    this.#link.close();
  }

  #feed(event: ReceiverEvent): void {
    for (const action of this.#machine.handle(event)) this.#react(action);
  }

  #react(action: ReceiverAction): void {
    switch (action.type) {
      case 'send':
        try {
          sendFrame(this.#link.channel, action.frame);
        } catch {
          // The sender already left; the machine hears of it from the close.
        }
        return;
      case 'ask-accept':
        return this.#observer.offer(action.offer);
      case 'open-part':
        this.#paths.set(action.index, action.path);
        return this.#store((target) => target.open(action.index, action.path, action.fileSize));
      case 'write': {
        const { index, bytes } = action;
        return this.#store((target) => target.write(index, bytes));
      }
      case 'commit':
        return this.#store(async (target) => {
          const name = await target.commit(action.index);
          this.#saved.push({ name, size: this.#sizeOf(action.index) });
        });
      case 'discard':
        return this.#store((target) => target.discard(action.index), true);
      case 'set-timer':
      case 'clear-timer':
        return this.#timers.apply(action);
      case 'progress':
        this.#sizes.set(action.index, action.fileBytes);
        return this.#observer.progress({
          index: action.index,
          total: action.total,
          fileName: this.#paths.get(action.index) ?? '',
          fileBytes: action.fileBytes,
          fileSize: action.fileSize,
          bytesDone: action.bytesDone,
          totalBytes: action.totalBytes,
        });
      case 'complete': {
        const bytes = action.bytes;
        // Done only once the last file is where it belongs.
        this.#storage = this.#storage.then(() => {
          const failure = this.#storageFailure;
          this.#observer.finished(
            failure === undefined
              ? { ok: true, files: this.#saved, bytes }
              : {
                  ok: false,
                  failure: {
                    code: 'ERR_DISK',
                    message: `a received file could not be saved (${failure})`,
                  },
                },
          );
        });
        return;
      }
      case 'fail':
        this.#timers.clearAll();
        return this.#observer.finished({
          ok: false,
          failure: { code: action.code, message: action.message },
        });
      case 'close':
        void closeLink(this.#link, action.flushMs);
        return;
    }
  }

  #sizeOf(index: number): number {
    return this.#sizes.get(index) ?? 0;
  }

  /** Queues one storage step; the first failure is the machine's to handle (discard, tell). */
  #store(step: (target: SaveTarget) => Promise<void>, evenAfterFailure = false): void {
    this.#storage = this.#storage.then(async () => {
      const target = this.#target;
      if (target === undefined || (this.#storageFailure !== undefined && !evenAfterFailure)) return;
      try {
        await step(target);
      } catch (error) {
        if (this.#storageFailure !== undefined) return;
        const detail = error instanceof Error ? error.message : String(error);
        this.#storageFailure = detail;
        this.#feed({ type: 'write-failed', detail });
      }
    });
  }
}
