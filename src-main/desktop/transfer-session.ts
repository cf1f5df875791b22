import { HandlerError } from '../../src-shared/ipc/dispatch';
import { IDLE_TRANSFER, type TransferView } from '../../src-shared/transfer/transfer-view';
import {
  receiveFiles,
  sendFiles,
  type OfferAnswer,
  type PeerOptions,
  type Transfer,
} from '../engine';
import { ERR_BUSY, refusalToStart } from './one-transfer-rule';

export interface ReceiveRequest {
  code: string;
  destination: string;
  autoAccept: boolean;
  reportBytes: boolean;
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
  #transfer: Transfer | undefined;
  #pendingOffer: PendingOffer | undefined;

  constructor(publish: (view: TransferView) => void, warn: (message: string) => void) {
    this.#publish = publish;
    this.#warn = warn;
  }

  get view(): TransferView {
    return this.#view;
  }

  startSend(paths: readonly string[], peer: PeerOptions): void {
    this.#ensureIdle();
    this.#follow(sendFiles({ ...peer, paths }));
  }

  startReceive(request: ReceiveRequest, peer: PeerOptions): void {
    this.#ensureIdle();
    this.#follow(
      receiveFiles({
        ...peer,
        code: request.code,
        destination: request.destination,
        reportBytes: request.reportBytes,
        onOffer: () => {
          if (request.autoAccept) return Promise.resolve(true);
          // The session core has published the offer; the person's answer comes by IPC.
          return new Promise<OfferAnswer>((resolve) => {
            this.#pendingOffer = { answer: resolve };
          });
        },
      }),
    );
  }

  answerOffer(accept: boolean, destination?: string): void {
    const pending = this.#pendingOffer;
    if (!pending)
      throw new HandlerError('ERR_NO_OFFER', 'There is no transfer waiting for an answer.');
    this.#pendingOffer = undefined;
    pending.answer(accept && destination !== undefined ? { destination } : accept);
  }

  cancel(): void {
    this.#pendingOffer?.answer(false);
    this.#pendingOffer = undefined;
    this.#transfer?.cancel();
  }

  dismiss(): void {
    if (this.#transfer) throw new HandlerError(ERR_BUSY, 'Cancel the transfer before leaving it.');
    this.#show(IDLE_TRANSFER);
  }

  /** Ends the running transfer, if any, and waits until its channel and files are closed. */
  async close(): Promise<void> {
    const transfer = this.#transfer;
    this.cancel();
    await transfer?.finished;
  }

  #ensureIdle(): void {
    const refusal = refusalToStart(this.#transfer !== undefined);
    if (refusal) throw new HandlerError(refusal.code, refusal.message);
  }

  #follow(transfer: Transfer): void {
    this.#transfer = transfer;
    // The engine publishes the views themselves: nothing here re-derives them.
    this.#show(transfer.state);
    transfer.on('state', (state) => this.#show(state));
    transfer.on('warning', (message) => this.#warn(message));
    void transfer.finished.then(() => {
      this.#transfer = undefined;
      this.#pendingOffer = undefined;
    });
  }

  #show(view: TransferView): void {
    this.#view = view;
    this.#publish(view);
  }
}
