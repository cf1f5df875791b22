import { defaultFailure } from '../../../src-shared/protocol/error-codes';
import type { Offer } from '../../../src-shared/protocol/receiver';
import type { PeerVersion } from '../../../src-shared/protocol/version-negotiation';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import { reportReceivedBytes } from './byte-count-report';
import { resolveCode } from './code-requests';
import { fetchIceServers } from './ice-server-list';
import { connectChannel } from './connect-channel';
import type { ChannelPort } from '../../../src-shared/session/ports';
import { ProgressMeter } from './progress-meter';
import { ReceiverSession, type ReceiveOutcome, type ReceiveProgress } from './receiver-session';
import type { SaveChoice } from './save-choice';
import type { SaveTarget } from './save-target';
import { SignalingSocket } from './signaling-socket';
import { TransferFailure, unexpectedFailure, type ShownFailure } from './transfer-failure';

export interface ReceiveOptions {
  signalingAddress: string;
  local: PeerVersion;
  /** Normalized. */
  code: string;
  saving: SaveChoice;
  /** Add the received bytes to the server's anonymous counter. */
  reportStats: boolean;
  publish(view: TransferView): void;
}

/**
 * One receive in the browser: resolve the code, join the sender's room, answer its offer, and
 * let the receiver machine run the batch into the save target the person accepted.
 */
export class ReceiveTransfer {
  readonly #options: ReceiveOptions;
  readonly #cancelled = new AbortController();
  readonly #meter = new ProgressMeter();
  #socket: SignalingSocket | undefined;
  #link: ChannelPort | undefined;
  #session: ReceiverSession | undefined;
  #offer: Offer | undefined;
  #target: SaveTarget | undefined;
  #over = false;

  constructor(options: ReceiveOptions) {
    this.#options = options;
  }

  async run(): Promise<void> {
    try {
      await this.#connect();
    } catch (error) {
      this.#fail(error instanceof TransferFailure ? error.failure : unexpectedFailure(error));
    }
  }

  /** The person's answer; `destination` is a folder they chose instead of the default. */
  async answer(accept: boolean, destination: string | undefined): Promise<void> {
    const session = this.#session;
    const offer = this.#offer;
    if (session === undefined || offer === undefined || this.#over) return;
    if (!accept) {
      session.answer(false);
      return;
    }
    try {
      this.#target = await this.#options.saving.target(destination, offer.totalBytes);
    } catch (error) {
      session.cancel();
      this.#fail(unexpectedFailure(error));
      return;
    }
    this.#show({
      index: 0,
      total: offer.total,
      fileName: offer.fileName,
      fileBytes: 0,
      fileSize: offer.fileSize,
      bytesDone: 0,
      totalBytes: offer.totalBytes,
    });
    session.answer(true, this.#target);
  }

  cancel(): void {
    if (this.#over) return;
    if (this.#session) {
      this.#session.cancel();
      return;
    }
    this.#cancelled.abort(new TransferFailure(defaultFailure('ERR_CANCELLED')));
  }

  dispose(): void {
    this.#over = true;
    this.#cancelled.abort(new TransferFailure(defaultFailure('ERR_CANCELLED')));
    if (this.#session) {
      this.#session.cancel();
      this.#session.close();
    } else this.#link?.close(0);
    this.#socket?.close();
  }

  async #connect(): Promise<void> {
    const { signalingAddress, code, publish } = this.#options;
    const signal = this.#cancelled.signal;
    publish({ phase: 'connecting', direction: 'receive', code });

    // ICE servers first: once in the room, the sender's offer can come at any moment, and
    // nothing may stand between joining and listening for it.
    const [room, ice] = await Promise.all([
      resolveCode(signalingAddress, code, signal),
      fetchIceServers(signalingAddress, signal),
    ]);
    if (!room.ok) throw new TransferFailure(room.failure);
    if (ice.warning) console.warn(`Ferry: ${ice.warning}`);
    const socket = await SignalingSocket.connect(signalingAddress, signal);
    this.#socket = socket;
    const role = await socket.join(room.value, signal);
    if (role !== 'receiver') {
      // First into the room: whoever registered the code has left it.
      throw new TransferFailure({
        ...defaultFailure('ERR_PEER_CLOSED'),
        message: 'the sending device is no longer waiting',
      });
    }
    const link = await connectChannel({
      signaling: socket,
      iceServers: ice.servers,
      signal,
      onRetry: (attempt) =>
        this.#options.publish({
          phase: 'connecting',
          direction: 'receive',
          code: this.#options.code,
          retry: attempt - 1,
        }),
    });
    this.#link = link;
    const session = new ReceiverSession(
      link,
      {
        surface: 'browser',
        local: this.#options.local,
        remedySurface: 'browser',
        askBeforeAccepting: true,
      },
      {
        offer: (offer) => void this.#offered(offer),
        progress: (progress) => {
          if (this.#meter.record(progress.bytesDone)) this.#show(progress);
        },
        finished: (outcome) => this.#finished(outcome),
      },
    );
    this.#session = session;
    session.start();
  }

  async #offered(offer: Offer): Promise<void> {
    this.#offer = offer;
    const destination = await this.#options.saving.defaultLabel(offer.totalBytes);
    if (this.#over) return;
    this.#options.publish({
      phase: 'awaiting-acceptance',
      direction: 'receive',
      offer: {
        firstFileName: offer.fileName,
        fileCount: offer.total,
        totalBytes: offer.totalBytes,
        ...(offer.sender.ver === undefined ? {} : { senderVersion: offer.sender.ver }),
      },
      destination,
    });
  }

  #show(progress: ReceiveProgress): void {
    if (this.#over) return;
    this.#options.publish({
      phase: 'transferring',
      direction: 'receive',
      progress: {
        fileIndex: progress.index + 1,
        fileCount: progress.total,
        fileName: progress.fileName,
        fileBytes: progress.fileBytes,
        fileSize: progress.fileSize ?? progress.fileBytes,
        bytesDone: progress.bytesDone,
        totalBytes: progress.totalBytes,
        ...this.#meter.speed(progress.bytesDone, progress.totalBytes),
      },
    });
  }

  #finished(outcome: ReceiveOutcome): void {
    if (!outcome.ok) {
      this.#fail(outcome.failure);
      return;
    }
    if (this.#over) return;
    const { signalingAddress, reportStats, publish } = this.#options;
    const folder = this.#target?.folder;
    publish({
      phase: 'done',
      direction: 'receive',
      files: outcome.files,
      totalBytes: outcome.bytes,
      ...(folder === undefined ? {} : { folder }),
    });
    this.#over = true;
    this.#socket?.close();
    if (reportStats) void reportReceivedBytes(signalingAddress, outcome.bytes);
  }

  #fail(failure: ShownFailure): void {
    if (this.#over) return;
    this.#options.publish({ phase: 'failed', direction: 'receive', ...failure });
    this.#over = true;
    this.#socket?.close();
    if (this.#session === undefined) this.#link?.close(0);
  }
}
