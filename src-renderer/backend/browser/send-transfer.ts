import { CONNECT_TIMEOUTS } from '../../../src-shared/session/connect-peer';
import { BROWSER_CONNECT_DELAY_MS } from '../../../src-shared/protocol/limits';
import { offeredCapabilities } from '../../../src-shared/session/capabilities';
import type { DeviceSetting } from '../../../src-shared/devices/peer-identity';
import type { PeerVersion } from '../../../src-shared/protocol/version-negotiation';
import type { ExpectedPeer } from '../../../src-shared/session/expected-peer';
import { runSendFlow } from '../../../src-shared/session/send-flow';
import { runSendSession } from '../../../src-shared/session/send-session';
import {
  isFinal,
  TransferHandle,
  type TransferControl,
  type TransferState,
} from '../../../src-shared/app/transfer-handle';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import { blobFileSource } from './blob-source';
import { browserClock } from './browser-clock';
import { newLinkSecret } from '../../../src-shared/verify/link-secret';
import { randomBytes } from './random-bytes';
import { browserRoute } from './browser-route';
import { joinBrowserRoom } from './browser-seat';
import { browserSignalingRequests } from './browser-http';
import { newRoomId } from './room-id';
import { sentFileIds } from './sender-file-ids';
import type { SourceFile } from './source-files';
import { textSource } from '../../../src-shared/session/text-message';
import type { FileSource } from '../../../src-shared/session/file-source';
import type { SenderFile } from '../../../src-shared/protocol/sender';
import { WORDS_UNAVAILABLE, WordsQuestion } from '../../../src-shared/verify/confirm-words';
import { pageHashing } from './worker-sha256';
import type { Reach } from '../../../src-shared/nearby/nearby-ports';

export interface SendOptions {
  signalingAddress: string;
  local: PeerVersion;
  files: readonly SourceFile[];
  /** A text message to send instead of `files` (docs/protocol.md, "Text messages"). */
  text?: string;
  /** This page's name and the devices it remembers, read afresh by every connection. */
  devices: DeviceSetting;
  /** "Confirm the words": no file data leaves before the person says the words match. */
  confirmWords: boolean;
  /** Only this remembered device may receive the batch (docs/protocol.md, "Remembered devices"). */
  expectPeer?: ExpectedPeer;
  /** Sends to this one device without a code (docs/protocol.md, "Pair rooms", "Presence"). */
  reach?: Reach;
  publish(view: TransferView): void;
  /** Something the person should know that the view does not say. */
  warn(message: string): void;
}

/**
 * One send from the browser: the session core's send flow (src-shared/session/send-flow.ts)
 * over the browser adapters, followed through the shared transfer handle
 * (src-shared/app/transfer-handle.ts). Registering a code as native senders do means a person
 * reads out three words and a command-line receiver resolves them.
 */
export class SendTransfer {
  readonly #options: SendOptions;
  readonly #handle: TransferHandle;
  /** True until a receiver joins: cancelling then concerns nobody else. */
  #peerless = true;
  /** The person left the transfer: it no longer publishes. */
  #left = false;
  readonly #words = new WordsQuestion();

  /** The send starts once the caller's synchronous code is done. */
  constructor(options: SendOptions) {
    this.#options = options;
    this.#handle = new TransferHandle(
      { phase: 'registering', direction: 'send', files: [], totalBytes: 0 },
      (control) => this.#send(control),
      'ERR_UNEXPECTED',
    );
    this.#handle.on('state', (state) => this.#show(state));
  }

  /** Waits until the transfer has an outcome and everything is closed; never rejects. */
  async run(): Promise<void> {
    await this.#handle.finished;
  }

  /**
   * Before anyone else is involved, cancelling just goes back (true); afterwards the other side
   * must hear of it, so the transfer fails as cancelled.
   */
  cancel(): boolean {
    if (this.#left || isFinal(this.#handle.state)) return false;
    const nobodyYet = this.#peerless;
    if (nobodyYet) this.#left = true;
    this.#handle.cancel();
    return nobodyYet;
  }

  /** The person's answer to whether the words match; false when nothing asks. */
  answerWords(match: boolean): boolean {
    if (!this.#words.answer(match)) return false;
    this.#reshow();
    return true;
  }

  /** Leaves the transfer, whatever its state. */
  dispose(): void {
    this.#words.answer(false);
    this.#left = true;
    this.#handle.cancel();
  }

  async #send(control: TransferControl): Promise<void> {
    const { signalingAddress, local, files, confirmWords, text } = this.#options;
    const { cancelled } = control;
    const publish = control.update;
    const requests = browserSignalingRequests(signalingAddress);
    const { sources, announced } = text === undefined ? await fileBatch(files) : textBatch(text);
    const caps = offeredCapabilities();
    // One secret for this code, shown with it in the receive link (docs/protocol.md, "Secret link").
    const linkSecret = caps.includes('link') ? newLinkSecret(randomBytes) : undefined;
    await runSendFlow(
      {
        clock: browserClock,
        timeouts: CONNECT_TIMEOUTS,
        newRoomId,
        registerCode: (roomId, stop) => requests.registerCode(roomId, stop),
        releaseCode: (code, roomId, outcome) => requests.releaseCode(code, roomId, outcome),
        joinRoom: (roomId, stop) => joinBrowserRoom(signalingAddress, roomId, stop),
        chooseRoute: (stop) => browserRoute(requests, stop),
        runSession: (channel, started, code, continuing) =>
          runSendSession({
            channel,
            clock: browserClock,
            surface: 'browser',
            sources,
            announced,
            caps,
            randomBytes,
            ...pageHashing(),
            ...(linkSecret === undefined ? {} : { linkSecret }),
            ...(text === undefined ? {} : { text }),
            local,
            devices: this.#options.devices,
            // The person compares the words once, on the connection the batch was accepted
            // on; a restored link goes on without asking again.
            ...(confirmWords && !continuing
              ? {
                  confirmPeer: (check) =>
                    this.#words.ask(check, {
                      asked: () => this.#reshow(),
                      refused: () => this.#options.warn(WORDS_UNAVAILABLE),
                    }),
                }
              : {}),
            remedySurface: 'browser',
            code,
            continuing,
            publish,
            cancelled,
            started,
          }),
      },
      {
        files: sources.map(({ name, size }) => ({ name, size })),
        publish,
        cancelled,
        afterConnectMs: BROWSER_CONNECT_DELAY_MS,
        ...(linkSecret === undefined ? {} : { linkSecret }),
        ...(this.#options.expectPeer === undefined ? {} : { expectPeer: this.#options.expectPeer }),
        ...(this.#options.reach === undefined ? {} : { reach: this.#options.reach }),
        ...(text === undefined ? {} : { text }),
      },
    );
  }

  /** The state on screen again, with the words question as it now stands. */
  #reshow(): void {
    const state = this.#handle.state;
    if (!isFinal(state)) this.#show(state);
  }

  #show(state: TransferState): void {
    if (this.#left) return;
    if (state.phase === 'connecting') this.#peerless = false;
    this.#options.publish(this.#words.shown(state));
  }
}

interface Batch {
  sources: FileSource[];
  announced: SenderFile[];
}

async function fileBatch(files: readonly SourceFile[]): Promise<Batch> {
  const sources = files.map(({ file, path }) => blobFileSource(path, file));
  // Stable ids let a receiver resume what an earlier send of the same file left behind.
  const ids = await sentFileIds(files);
  const announced = files.map(({ file, path }, index) => ({
    id: ids[index],
    fileName: path,
    fileSize: file.size,
  }));
  return { sources, announced };
}

/** A text message: one `message.txt` from memory, with a fresh id (nothing to resume from). */
function textBatch(text: string): Batch {
  const source = textSource(text);
  const id = Array.from(randomBytes(16), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return { sources: [source], announced: [{ id, fileName: source.name, fileSize: source.size }] };
}
