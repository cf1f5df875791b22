import { defaultFailure } from '../../../src-shared/protocol/error-codes';
import { BROWSER_CONNECT_DELAY_MS } from '../../../src-shared/protocol/limits';
import type { SenderState } from '../../../src-shared/protocol/sender';
import type { PeerVersion } from '../../../src-shared/protocol/version-negotiation';
import type { FileEntryView, TransferView } from '../../../src-shared/transfer/transfer-view';
import { abortableDelay } from './abortable-delay';
import { registerCode } from './code-requests';
import { fetchIceServers } from './ice-server-list';
import { connectChannel } from './connect-channel';
import type { ChannelPort } from '../../../src-shared/session/ports';
import { ProgressMeter } from './progress-meter';
import { newRoomId } from './room-id';
import { SenderSession } from './sender-session';
import { SignalingSocket } from './signaling-socket';
import type { SourceFile } from './source-files';
import { TransferFailure, unexpectedFailure, type ShownFailure } from './transfer-failure';

export interface SendOptions {
  signalingAddress: string;
  local: PeerVersion;
  files: readonly SourceFile[];
  publish(view: TransferView): void;
}

/**
 * One send from the browser, start to finish: register a code (as native senders do, so a
 * person reads out three words and the command-line receiver resolves them), wait in the room
 * for the receiver, connect, then let the sender machine run the batch.
 */
export class SendTransfer {
  readonly #options: SendOptions;
  readonly #entries: FileEntryView[];
  readonly #totalBytes: number;
  readonly #cancelled = new AbortController();
  readonly #meter = new ProgressMeter();
  #socket: SignalingSocket | undefined;
  #link: ChannelPort | undefined;
  #session: SenderSession | undefined;
  #code = '';
  /** Bytes handed to the channel, per file and in all. */
  #handed: number[];
  #handedTotal = 0;
  /** True until a receiver joins: cancelling then concerns nobody else. */
  #peerless = true;
  #over = false;

  constructor(options: SendOptions) {
    this.#options = options;
    this.#entries = options.files.map(({ file, path }) => ({ name: path, size: file.size }));
    this.#totalBytes = this.#entries.reduce((sum, entry) => sum + entry.size, 0);
    this.#handed = this.#entries.map(() => 0);
  }

  /** Runs until the transfer has an outcome; never rejects. */
  async run(): Promise<void> {
    try {
      await this.#connectAndSend();
    } catch (error) {
      this.#fail(error instanceof TransferFailure ? error.failure : unexpectedFailure(error));
    }
  }

  /**
   * Before anyone else is involved, cancelling just goes back (true); afterwards the other side
   * must hear of it, so the transfer fails as cancelled.
   */
  cancel(): boolean {
    if (this.#over) return false;
    if (this.#session) {
      this.#session.cancel();
      return false;
    }
    const nobodyYet = this.#peerless;
    this.#cancelled.abort(new TransferFailure(defaultFailure('ERR_CANCELLED')));
    if (nobodyYet) {
      this.#over = true;
      this.#release();
    }
    return nobodyYet;
  }

  /** Leaves the transfer, whatever its state. */
  dispose(): void {
    this.#over = true;
    this.#cancelled.abort(new TransferFailure(defaultFailure('ERR_CANCELLED')));
    this.#release();
    this.#link?.close(0);
  }

  async #connectAndSend(): Promise<void> {
    const { signalingAddress, publish } = this.#options;
    const signal = this.#cancelled.signal;
    const files = this.#entries;
    publish({ phase: 'registering', direction: 'send', files, totalBytes: this.#totalBytes });

    const roomId = newRoomId();
    const [registered, ice] = await Promise.all([
      registerCode(signalingAddress, roomId, signal),
      fetchIceServers(signalingAddress, signal),
    ]);
    if (!registered.ok) throw new TransferFailure(registered.failure);
    if (ice.warning) console.warn(`Ferry: ${ice.warning}`);
    this.#code = registered.value;

    const socket = await SignalingSocket.connect(signalingAddress, signal);
    this.#socket = socket;
    const role = await socket.join(roomId, signal);
    if (role !== 'sender') {
      throw new TransferFailure({
        ...defaultFailure('ERR_SIGNALING_ERROR'),
        message: 'the signaling server put this sender in a room that already had one',
      });
    }
    this.#publishIfRunning({
      phase: 'waiting-for-peer',
      direction: 'send',
      code: this.#code,
      files,
      totalBytes: this.#totalBytes,
    });

    const code = this.#code;
    const link = await connectChannel({
      signaling: socket,
      iceServers: ice.servers,
      signal,
      onPeerJoined: () => {
        this.#peerless = false;
        this.#publishIfRunning({ phase: 'connecting', direction: 'send', code });
      },
      onRetry: (attempt) =>
        this.#publishIfRunning({
          phase: 'connecting',
          direction: 'send',
          code,
          retry: attempt - 1,
        }),
    });
    this.#link = link;

    // The spec's pause after connecting, before the route is checked and the first byte sent.
    await abortableDelay(BROWSER_CONNECT_DELAY_MS, signal);
    const relayed = await link.relayed();
    const session = new SenderSession(
      link,
      {
        files: this.#options.files.map(({ file, path }, index) => ({
          id: `file-${index + 1}`,
          fileName: path,
          fileSize: file.size,
        })),
        local: this.#options.local,
        surface: 'browser',
        remedySurface: 'browser',
      },
      this.#options.files.map(({ file }) => file),
      {
        changed: (state) => this.#showState(state),
        sent: (index, bytes) => this.#sent(index, bytes),
        finished: (outcome) => {
          if (outcome.ok) this.#done();
          else this.#fail(outcome.failure);
        },
      },
    );
    this.#session = session;
    session.start(relayed);
  }

  #publishIfRunning(view: TransferView): void {
    if (!this.#over) this.#options.publish(view);
  }

  #sent(index: number, bytes: number): void {
    this.#handed[index] += bytes;
    this.#handedTotal += bytes;
    const state = this.#session?.state;
    if (state && this.#meter.record(this.#delivered())) this.#showState(state);
  }

  /** What has left this browser: bytes handed to the channel less what still waits in its buffer. */
  #delivered(): number {
    const buffered = this.#link?.bufferedAmount() ?? 0;
    return Math.max(0, this.#handedTotal - buffered);
  }

  #showState(state: SenderState): void {
    if (state.phase === 'awaiting-ack' && state.index === 0) {
      this.#publishIfRunning({
        phase: 'waiting-for-acceptance',
        direction: 'send',
        code: this.#code,
      });
      return;
    }
    if (
      state.phase !== 'awaiting-ack' &&
      state.phase !== 'streaming' &&
      state.phase !== 'awaiting-delivery'
    ) {
      return;
    }
    const index = state.phase === 'awaiting-delivery' ? this.#entries.length - 1 : state.index;
    const entry = this.#entries[index];
    const buffered = this.#link?.bufferedAmount() ?? 0;
    const bytesDone = this.#delivered();
    this.#publishIfRunning({
      phase: 'transferring',
      direction: 'send',
      progress: {
        fileIndex: index + 1,
        fileCount: this.#entries.length,
        fileName: entry.name,
        fileBytes: Math.min(entry.size, Math.max(0, this.#handed[index] - buffered)),
        fileSize: entry.size,
        bytesDone,
        totalBytes: this.#totalBytes,
        ...this.#meter.speed(bytesDone, this.#totalBytes),
      },
    });
  }

  #done(): void {
    if (this.#over) return;
    this.#options.publish({
      phase: 'done',
      direction: 'send',
      files: this.#entries,
      totalBytes: this.#totalBytes,
    });
    this.#over = true;
    this.#release();
  }

  #fail(failure: ShownFailure): void {
    if (this.#over) return;
    this.#options.publish({ phase: 'failed', direction: 'send', ...failure });
    this.#over = true;
    this.#release();
    // Without a session nothing else closes the connection.
    if (this.#session === undefined) this.#link?.close(0);
  }

  /** Leaves the room: after the channel opened the server has no further part. */
  #release(): void {
    this.#socket?.close();
  }
}
