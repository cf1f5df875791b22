import type {
  RunningTransfer,
  SessionStarter,
  TransferEvents,
} from '../../src-shared/app/app-ports';
import { autoAccepts } from '../../src-shared/devices/auto-accept';
import type { DeviceDirectory } from '../../src-shared/devices/remembered-devices';
import type { Reach } from '../../src-shared/nearby/nearby-ports';
import type { PeerCheck, TransferView } from '../../src-shared/transfer/transfer-view';
import { WORDS_UNAVAILABLE, WordsQuestion } from '../../src-shared/verify/confirm-words';
import {
  isFinal,
  receiveFiles,
  sendFiles,
  sendText,
  type OfferAnswer,
  type PeerOptions,
  type Transfer,
} from '../engine';

export interface ReceiveRequest {
  code: string;
  /**
   * An invitation to this room, received without a code (`code` empty; docs/protocol.md, "Pair
   * rooms"); the inviting paired device goes in `peer.expectPeer`.
   */
  roomId?: string;
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
  /** "Confirm the words" is on: no file data moves before the person says the words match. */
  confirmWords: boolean;
}

/**
 * A transfer the desktop app asks the engine for. `reach`: a send to one device without a code
 * (docs/protocol.md, "Pair rooms", "Presence").
 */
export type DesktopStart =
  | {
      kind: 'send';
      paths: readonly string[];
      peer: PeerOptions;
      confirmWords: boolean;
      reach?: Reach;
    }
  /** A text message (docs/protocol.md, "Text messages"): nothing on disk is read. */
  | { kind: 'text'; text: string; peer: PeerOptions; confirmWords: boolean; reach?: Reach }
  | { kind: 'receive'; request: ReceiveRequest; peer: PeerOptions };

/**
 * The desktop app's session starter for the application core (docs/architecture.md, "The
 * application core"): the engine's transfers, seen as TransferViews.
 */
export const engineSessions: SessionStarter<DesktopStart> = {
  start: (start, events) => Promise.resolve(new EngineTransfer(start, events)),
};

/**
 * One engine transfer as the core drives it. It holds what only a desktop transfer has: the
 * receiver's question to the person, and the words question, until the window answers by IPC.
 */
class EngineTransfer implements RunningTransfer {
  readonly closed: Promise<void>;
  readonly #events: TransferEvents;
  readonly #transfer: Transfer;
  #answerOffer: ((answer: OfferAnswer) => void) | undefined;
  /** With "Confirm the words" on: the person's answer to whether the words match. */
  readonly #words = new WordsQuestion();
  /** The engine's last view, shown with the words question while it is open. */
  #last: TransferView;

  constructor(start: DesktopStart, events: TransferEvents) {
    this.#events = events;
    const transfer = this.#begin(start);
    this.#transfer = transfer;
    this.#last = transfer.state;
    // The engine publishes the views themselves: nothing here re-derives them.
    this.#show(transfer.state);
    transfer.on('state', (state) => this.#show(state));
    transfer.on('warning', (message) => events.warning(message));
    this.closed = transfer.finished.then(() => {
      this.#answerOffer = undefined;
    });
  }

  cancel(): void {
    this.#answerOffer?.(false);
    this.#answerOffer = undefined;
    this.#transfer.cancel();
    this.#words.answer(false);
  }

  /** A finished transfer closes in its own time (a receiver waits so its last word lands). */
  leave(): void {
    if (!isFinal(this.#transfer.state)) this.cancel();
  }

  answerOffer(accept: boolean, destination?: string): Promise<boolean> {
    const answer = this.#answerOffer;
    if (answer === undefined) return Promise.resolve(false);
    this.#answerOffer = undefined;
    answer(accept && destination !== undefined ? { destination } : accept);
    return Promise.resolve(true);
  }

  answerWords(match: boolean): boolean {
    if (!this.#words.answer(match)) return false;
    this.#show(this.#last);
    return true;
  }

  #begin(start: DesktopStart): Transfer {
    switch (start.kind) {
      case 'send':
        return sendFiles({
          ...start.peer,
          paths: start.paths,
          ...this.#senderConfirms(start),
          ...(start.reach === undefined ? {} : { reach: start.reach }),
        });
      case 'text':
        return sendText({
          ...start.peer,
          text: start.text,
          ...this.#senderConfirms(start),
          ...(start.reach === undefined ? {} : { reach: start.reach }),
        });
      case 'receive':
        return this.#receive(start.request, start.peer);
    }
  }

  #receive(request: ReceiveRequest, peer: PeerOptions): Transfer {
    return receiveFiles({
      ...peer,
      code: request.code,
      ...(request.roomId === undefined ? {} : { roomId: request.roomId }),
      ...(request.linkSecret === undefined ? {} : { linkSecret: request.linkSecret }),
      destination: request.destination,
      reportBytes: request.reportBytes,
      acceptsAtOnce: (offer) => autoAccepts(request.devices, offer, request.autoAcceptMaxBytes),
      onOffer: async (offer) => {
        // The words are compared before Accept can count (the command line's --verify).
        if (request.confirmWords && !(await this.#wordsCompared(offer.peerCheck))) return false;
        // The session core has published the offer; the person's answer comes by IPC.
        return new Promise<OfferAnswer>((resolve) => {
          this.#answerOffer = resolve;
        });
      },
    });
  }

  /** The sending session's `onPeerCheck` when the person confirms the words. */
  #senderConfirms(start: { confirmWords: boolean }): {
    onPeerCheck?: (check: PeerCheck) => Promise<boolean>;
  } {
    return start.confirmWords ? { onPeerCheck: (check) => this.#wordsCompared(check) } : {};
  }

  /**
   * Asks the person (the view says so) when there are words to compare; a device that cannot
   * show any is refused, and said why.
   */
  #wordsCompared(check: PeerCheck): Promise<boolean> {
    return this.#words.ask(check, {
      asked: () => this.#show(this.#last),
      refused: () => this.#events.warning(WORDS_UNAVAILABLE),
    });
  }

  /** While the words are asked about, the question stays on whichever view the engine sends. */
  #show(view: TransferView): void {
    this.#last = view;
    this.#events.view(this.#words.shown(view));
  }
}
