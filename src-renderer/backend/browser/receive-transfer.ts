import type { DeviceSetting } from '../../../src-shared/devices/peer-identity';
import { textTarget } from '../../../src-shared/session/text-message';
import type { PeerVersion } from '../../../src-shared/protocol/version-negotiation';
import { offeredCapabilities } from '../../../src-shared/session/capabilities';
import { CONNECT_TIMEOUTS } from '../../../src-shared/session/connect-peer';
import { runReceiveFlow } from '../../../src-shared/session/receive-flow';
import { systemOfUserAgent } from '../../../src-shared/names/receiving-system';
import { runReceiveSession } from '../../../src-shared/session/receive-session';
import {
  isFinal,
  TransferHandle,
  type TransferControl,
  type TransferState,
} from '../../../src-shared/app/transfer-handle';
import type {
  OfferPacking,
  OfferView,
  TransferView,
} from '../../../src-shared/transfer/transfer-view';
import { browserClock } from './browser-clock';
import type { RouteChoice } from '../../../src-shared/session/ports';
import { randomBytes } from './random-bytes';
import { answeredLanes, browserRoute } from './browser-route';
import { joinBrowserRoom } from './browser-seat';
import { browserSignalingRequests } from './browser-http';
import type { SaveChoice } from './save-choice';
import type { SaveTarget } from './save-target';
import { WORDS_UNAVAILABLE, WordsQuestion } from '../../../src-shared/verify/confirm-words';
import { pageHashing } from './worker-sha256';
import { quickSaveTarget } from './quick-save';
import type { ExpectedPeer } from '../../../src-shared/session/expected-peer';

export interface ReceiveOptions {
  signalingAddress: string;
  local: PeerVersion;
  /** Normalized; empty with `roomId`. */
  code: string;
  /** An invitation to this room (docs/protocol.md, "Pair rooms", "Presence"): no code is resolved. */
  roomId?: string;
  /** Only this remembered device may send: the paired device that invited. */
  expectPeer?: ExpectedPeer;
  /** The secret of the receive link the page was opened from (docs/protocol.md, "Secret link"). */
  linkSecret?: string;
  saving: SaveChoice;
  /** Add the received bytes to the server's anonymous counter. */
  reportStats: boolean;
  /** This page's name and the devices it remembers, read afresh by every connection. */
  devices: DeviceSetting;
  /** A remembered device's quick save takes batches of at most this many bytes (quick-save.ts). */
  autoAcceptMaxBytes: number;
  /**
   * "Confirm the words": Accept counts only once the person said the words match, and a device
   * that cannot show words is declined.
   */
  confirmWords: boolean;
  publish(view: TransferView): void;
  /** Something the person should know that the view does not say. */
  warn(message: string): void;
}

/**
 * One receive in the browser: the session core's receive flow (src-shared/session/receive-flow.ts)
 * over the browser adapters, into the save target the person accepted, followed through the
 * shared transfer handle (src-shared/app/transfer-handle.ts).
 */
export class ReceiveTransfer {
  readonly #options: ReceiveOptions;
  readonly #handle: TransferHandle;
  /** The offer on screen and where the person's answer goes, while one is asked. */
  #pending: { offer: OfferView; answer(target: Promise<SaveTarget | undefined>): void } | undefined;
  /** The `.zip` the offer on screen came with, where it goes to the browser's downloads. */
  #zip: { name: string } | undefined;
  /** Where the accepted batch goes. */
  #target: SaveTarget | undefined;
  /** The person left the transfer: it no longer publishes. */
  #left = false;
  readonly #words = new WordsQuestion();

  /** The receive starts once the caller's synchronous code is done. */
  constructor(options: ReceiveOptions) {
    this.#options = options;
    this.#handle = new TransferHandle(
      { phase: 'connecting', direction: 'receive', code: options.code, stage: 'finding' },
      (control) => this.#receive(control),
      'ERR_UNEXPECTED',
    );
    this.#handle.on('state', (state) => this.#show(state));
  }

  /** Waits until the transfer has an outcome and everything is closed; never rejects. */
  async run(): Promise<void> {
    await this.#handle.finished;
  }

  async #receive(control: TransferControl): Promise<void> {
    const { signalingAddress, local, code, saving, reportStats, linkSecret } = this.#options;
    const { cancelled } = control;
    const publish = control.update;
    const requests = browserSignalingRequests(signalingAddress);
    /** The newest attempt's route: lanes open on the route the open channel took. */
    let route: RouteChoice | undefined;
    try {
      await runReceiveFlow(
        {
          clock: browserClock,
          timeouts: CONNECT_TIMEOUTS,
          resolveCode: (normalized, stop) => requests.resolveCode(normalized, stop),
          joinRoom: (roomId, stop) => joinBrowserRoom(signalingAddress, roomId, stop),
          chooseRoute: async (stop) => {
            route = await browserRoute(requests, stop);
            return route;
          },
          runSession: (channel, started, accepted) =>
            runReceiveSession({
              channel,
              ...(route === undefined ? {} : { lanes: answeredLanes(route) }),
              clock: browserClock,
              surface: 'browser',
              caps: offeredCapabilities(true, { lanes: true }),
              randomBytes,
              ...pageHashing(),
              ...(linkSecret === undefined ? {} : { linkSecret }),
              local,
              devices: this.#options.devices,
              remedySurface: 'browser',
              system: systemOfUserAgent(navigator.userAgent),
              // After a lost link the batch goes on into the target the person already accepted.
              acceptance:
                accepted === undefined
                  ? {
                      ask: true,
                      destination: async (offer) => {
                        this.#zip = saving.zipChoice(offer);
                        return saving.defaultLabel(offer.totalBytes);
                      },
                      // Without words to compare the question is open at once, so an answer
                      // given the moment the offer shows finds it (the app core's inline text).
                      choose: (offer) =>
                        this.#options.confirmWords
                          ? this.#wordsCompared(offer).then((compared) =>
                              compared ? this.#ask(offer) : undefined,
                            )
                          : this.#ask(offer),
                      withoutAsking: (offer) => this.#quickSave(offer),
                    }
                  : { ask: false, target: accepted },
              publish,
              cancelled,
              started,
            }),
          reportBytes: (bytes) => requests.reportBytes(bytes),
        },
        {
          code,
          publish,
          cancelled,
          report: reportStats,
          ...(this.#options.roomId === undefined ? {} : { roomId: this.#options.roomId }),
          ...(this.#options.expectPeer === undefined
            ? {}
            : { expectPeer: this.#options.expectPeer }),
        },
      );
    } finally {
      // An archive the batch did not finish is given up, so the browser does not keep half of it.
      this.#target?.release?.();
    }
  }

  /**
   * The person's answer; `destination` is a folder they chose instead of the default, `packing`
   * whether an offer with a `.zip` choice goes as that archive or as separate files.
   */
  async answer(
    accept: boolean,
    destination: string | undefined,
    packing?: OfferPacking,
  ): Promise<boolean> {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending === undefined) return false;
    const { saving } = this.#options;
    // A text message is shown, never saved: no download is prepared for it.
    const shown = accept && pending.offer.textMessage === true;
    const target = shown
      ? Promise.resolve(Object.assign(textTarget(), { label: 'Shown here' }))
      : accept
        ? saving.target(destination, pending.offer, this.#zip, packing).then((chosen) => {
            this.#target = chosen;
            return chosen;
          })
        : Promise.resolve(undefined);
    pending.answer(target);
    return true;
  }

  cancel(): void {
    if (this.#left) return;
    void this.answer(false, undefined);
    this.#handle.cancel();
    this.#words.answer(false);
  }

  /** Leaves the transfer, whatever its state; a finished one closes its channel. */
  dispose(): void {
    void this.answer(false, undefined);
    this.#words.answer(false);
    this.#left = true;
    this.#handle.cancel();
  }

  /** Accept still waits for the person to say whether the words match. */
  get wordsAsked(): boolean {
    return this.#words.pending;
  }

  /** The person's answer to whether the words match; false when nothing asks. */
  answerWords(match: boolean): boolean {
    if (!this.#words.answer(match)) return false;
    this.#reshow();
    return true;
  }

  /** With "Confirm the words" on, whether the person compared them (asked when there are any). */
  async #wordsCompared(offer: OfferView): Promise<boolean> {
    if (!this.#options.confirmWords) return true;
    return this.#words.ask(offer.peerCheck, {
      asked: () => this.#reshow(),
      refused: () => this.#options.warn(WORDS_UNAVAILABLE),
    });
  }

  /** The chosen folder, where the offer's device is set to save without asking. */
  #quickSave(offer: OfferView): SaveTarget | undefined {
    const { devices, autoAcceptMaxBytes, saving, warn } = this.#options;
    const target = quickSaveTarget(offer, {
      directory: devices.directory,
      maxBytes: autoAcceptMaxBytes,
      chosenFolder: () => saving.chosenFolder(),
      warn,
    });
    this.#target = target;
    return target;
  }

  #ask(offer: OfferView): Promise<SaveTarget | undefined> {
    return new Promise<SaveTarget | undefined>((resolve, reject) => {
      this.#pending = { offer, answer: (target) => target.then(resolve, reject) };
    });
  }

  /** The state on screen again, with the words question as it now stands. */
  #reshow(): void {
    const state = this.#handle.state;
    if (!isFinal(state)) this.#show(state);
  }

  #show(state: TransferState): void {
    if (this.#left) return;
    this.#options.publish(this.#words.shown(this.#withSaving(state)));
  }

  /** The `.zip` choice on the offer, and on the done screen the downloads the files went to. */
  #withSaving(view: TransferView): TransferView {
    if (view.phase === 'awaiting-acceptance' && this.#zip !== undefined) {
      return { ...view, zip: this.#zip };
    }
    const downloads = this.#target?.downloads;
    if (view.phase === 'done' && downloads !== undefined) return { ...view, downloads };
    return view;
  }
}
