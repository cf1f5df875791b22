import { autoAccepts } from '../../src-shared/devices/auto-accept';
import type { DeviceDirectory } from '../../src-shared/devices/remembered-devices';
import { HandlerError } from '../../src-shared/ipc/dispatch';
import {
  IDLE_TRANSFER,
  type PeerCheck,
  type TransferView,
} from '../../src-shared/transfer/transfer-view';
import {
  receiveFiles,
  sendFiles,
  sendText,
  type OfferAnswer,
  type PeerOptions,
  type Transfer,
} from '../engine';
import { WORDS_UNAVAILABLE, WordsQuestion } from '../../src-shared/verify/confirm-words';
import { appError } from '../../src-shared/app/app-errors';
import type { IpcError } from '../../src-shared/ipc/result';
import { refusalToStart } from './one-transfer-rule';

export interface ReceiveRequest {
  code: string;
  /** The key of the receive link the code came with (docs/protocol.md, "Secret link"). */
  linkSecret?: string;
  destination: string;
  reportBytes: boolean;
  /**
   * The devices this installation remembers: an offer from one the person set to auto-accept
   * goes into `destination` without asking (docs/protocol.md, "Remembered devices").
   */
  devices: DeviceDirectory;
  /** A quick save takes batches of at most this many bytes; a larger one is asked about. */
  autoAcceptMaxBytes: number;
  /** "Confirm the words before any file moves" (src-shared/verify/confirm-words.ts). */
  confirmWords: boolean;
}

interface PendingOffer {
  answer: (answer: OfferAnswer) => void;
}

/**
 * The one transfer the desktop app runs at a time, seen as a TransferView. It turns the engine's
 * states into views, holds the receiver's question to the person, and refuses a second transfer
 * while one is active.
 */
export class TransferSession {
  readonly #publish: (view: TransferView) => void;
  readonly #warn: (message: string) => void;
  #view: TransferView = IDLE_TRANSFER;
  /** The transfer on screen, until the person leaves it. */
  #transfer: Transfer | undefined;
  /** Every transfer whose channel and files are not closed yet, the one on screen included. */
  readonly #closing = new Set<Transfer>();
  #pendingOffer: PendingOffer | undefined;
  /** With "Confirm the words" on: the person's answer to whether the words match. */
  #words = new WordsQuestion();

  constructor(publish: (view: TransferView) => void, warn: (message: string) => void) {
    this.#publish = publish;
    this.#warn = warn;
  }

  get view(): TransferView {
    return this.#view;
  }

  /** `confirmWords`: no file data leaves before the person says the words match. */
  startSend(paths: readonly string[], peer: PeerOptions, confirmWords: boolean): void {
    this.#ensureIdle();
    this.#follow(sendFiles({ ...peer, paths, ...this.#senderConfirms(confirmWords) }));
  }

  /** A text message (docs/protocol.md, "Text messages"): nothing on disk is read. */
  startSendText(text: string, peer: PeerOptions, confirmWords: boolean): void {
    this.#ensureIdle();
    this.#follow(sendText({ ...peer, text, ...this.#senderConfirms(confirmWords) }));
  }

  startReceive(request: ReceiveRequest, peer: PeerOptions): void {
    this.#ensureIdle();
    this.#follow(
      receiveFiles({
        ...peer,
        code: request.code,
        ...(request.linkSecret === undefined ? {} : { linkSecret: request.linkSecret }),
        destination: request.destination,
        reportBytes: request.reportBytes,
        acceptsAtOnce: (offer) => autoAccepts(request.devices, offer, request.autoAcceptMaxBytes),
        onOffer: async (offer) => {
          // The words are compared before Accept can count (the command line's --verify).
          if (request.confirmWords && !(await this.#wordsCompared(offer.peerCheck))) return false;
          // The session core has published the offer; the person's answer comes by IPC.
          return new Promise<OfferAnswer>((resolve) => {
            this.#pendingOffer = { answer: resolve };
          });
        },
      }),
    );
  }

  answerOffer(accept: boolean, destination?: string): void {
    if (this.#words.pending) {
      if (accept) {
        refuse(appError('ERR_WORDS_NOT_COMPARED'));
      }
      this.#words.answer(false);
      return;
    }
    const pending = this.#pendingOffer;
    if (!pending) refuse(appError('ERR_NO_OFFER'));
    this.#pendingOffer = undefined;
    pending.answer(accept && destination !== undefined ? { destination } : accept);
  }

  /** The person's answer to whether the words match, on either side. */
  answerWords(match: boolean): void {
    if (!this.#words.answer(match)) {
      refuse(appError('ERR_NO_WORDS_QUESTION'));
    }
    this.#show(this.#view);
  }

  cancel(): void {
    this.#pendingOffer?.answer(false);
    this.#pendingOffer = undefined;
    this.#transfer?.cancel();
    this.#words.answer(false);
  }

  /**
   * Leaves a finished or failed transfer. Its outcome is final the moment it is shown, even while
   * its channel still closes (a receiver waits a few seconds so its last word lands): the person
   * may leave it, and start another, at once.
   */
  dismiss(): void {
    if (this.#running) {
      refuse(appError('ERR_BUSY'));
    }
    this.#transfer = undefined;
    this.#show(IDLE_TRANSFER);
  }

  /** Resolves once no transfer is closing any more. */
  async settled(): Promise<void> {
    await Promise.all([...this.#closing].map((transfer) => transfer.finished));
  }

  /** Ends the running transfer, if any, and waits until every channel and file is closed. */
  async close(): Promise<void> {
    this.cancel();
    await this.settled();
  }

  /** A transfer is on screen and has no outcome yet. */
  get #running(): boolean {
    return this.#transfer !== undefined && !FINAL_PHASES.has(this.#view.phase);
  }

  #ensureIdle(): void {
    const refusal = refusalToStart(this.#running);
    if (refusal) refuse(refusal);
  }

  /** The sending session's `onPeerCheck` when the person confirms the words. */
  #senderConfirms(confirmWords: boolean): { onPeerCheck?: (check: PeerCheck) => Promise<boolean> } {
    return confirmWords ? { onPeerCheck: (check) => this.#wordsCompared(check) } : {};
  }

  /**
   * Asks the person (the view says so) when there are words to compare; a device that cannot
   * show any is refused, and said why.
   */
  #wordsCompared(check: PeerCheck): Promise<boolean> {
    return this.#words.ask(check, {
      asked: () => this.#show(this.#view),
      refused: () => this.#warn(WORDS_UNAVAILABLE),
    });
  }

  #follow(transfer: Transfer): void {
    this.#transfer = transfer;
    this.#words = new WordsQuestion();
    this.#closing.add(transfer);
    // The engine publishes the views themselves: nothing here re-derives them. A transfer the
    // person has left is not shown any more.
    this.#show(transfer.state);
    transfer.on('state', (state) => {
      if (this.#transfer === transfer) this.#show(state);
    });
    transfer.on('warning', (message) => {
      if (this.#transfer === transfer) this.#warn(message);
    });
    void transfer.finished.then(() => {
      this.#closing.delete(transfer);
      if (this.#transfer !== transfer) return;
      this.#transfer = undefined;
      this.#pendingOffer = undefined;
    });
  }

  /** While the words are asked about, the question stays on whichever view the engine sends. */
  #show(view: TransferView): void {
    this.#view = this.#words.shown(view);
    this.#publish(this.#view);
  }
}

function refuse(error: IpcError): never {
  throw new HandlerError(error.code, error.message);
}

const FINAL_PHASES: ReadonlySet<TransferView['phase']> = new Set(['done', 'failed']);
