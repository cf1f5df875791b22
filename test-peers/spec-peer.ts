// A strict, independent peer written from the two spec documents alone (signaling server and
// data-channel protocol), for tests that pair Ferry with something that is not Ferry. It imports
// nothing from Ferry on purpose: a behaviour both sides shared could never show up otherwise.
// Where the spec leaves a choice open, this peer takes the least forgiving one.
import { mkdir, open, rename, stat, type FileHandle } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { dirname, join, normalize, sep } from 'node:path';
import nodeDataChannel, { type DataChannel, type PeerConnection } from 'node-datachannel';
import WebSocket from 'ws';

// Spec "Limits" of the data-channel protocol.
const CONTROL_FRAME_MAX_BYTES = 1000;
const CHUNK_CAP_BYTES = 256 * 1024;
const CHUNK_FALLBACK_BYTES = 16 * 1024;
const HIGH_WATER_BYTES = 8 * 1024 * 1024;
const LOW_WATER_BYTES = 4 * 1024 * 1024;
const ACK_TIMEOUT_MS = 120_000;
/** How often the drained buffer is looked at after the batch: no event says "empty". */
const BUFFER_CHECK_MS = 20;
/** A closing channel gets this long for the peer to confirm before the connection goes. */
const CLOSE_GRACE_MS = 5000;
// Spec "Connection requirement": the answer carries a 1 GB maximum message size.
const ANSWER_MAX_MESSAGE_SIZE = 1073741824;
// Signaling spec "Limits": the role arrives within 20 s; the connection window is 30 s.
const ROLE_WAIT_MS = 20_000;
const CONNECT_WINDOW_MS = 30_000;
const VERSION = { pv: 1, pvMin: 1, ver: '0.0.0-spec-peer' };

export interface SpecFile {
  /** Relative, `/`-separated. */
  name: string;
  bytes: Uint8Array;
}

/** What the peer saw, in order: tests read it to check each step happened. */
export type SpecLog = string[];

export interface SpecSendOptions {
  serverUrl: string;
  files: readonly SpecFile[];
  /** Called with the code once it is registered. */
  onCode(code: string): void;
  log?: SpecLog;
}

export interface SpecReceiveOptions {
  serverUrl: string;
  code: string;
  folder: string;
  log?: SpecLog;
}

class SpecViolation extends Error {}

/** Registers a code, waits for a receiver, offers the instant it joins, sends the batch. */
export async function specSend(options: SpecSendOptions): Promise<void> {
  const log = options.log ?? [];
  const roomId = crypto.randomUUID();
  const code = await postCode(options.serverUrl, roomId);
  const seat = await Seat.join(options.serverUrl, roomId, 'sender');
  options.onCode(code);
  try {
    await seat.next('user-connected', 10 * 60_000);
    log.push('user-connected');
    // The offer goes out the very instant the receiver is there: no pause, no other await.
    const peer = new Peer(seat, 'offerer', log);
    const { channel, inbox } = await peer.opened;
    try {
      await sendBatch(channel, inbox, options.files, log);
    } finally {
      await peer.close();
    }
  } finally {
    seat.close();
  }
}

/** Resolves the code, joins as receiver, answers, and receives the batch into `folder`. */
export async function specReceive(options: SpecReceiveOptions): Promise<string[]> {
  const log = options.log ?? [];
  const roomId = await getRoomId(options.serverUrl, options.code);
  const seat = await Seat.join(options.serverUrl, roomId, 'receiver');
  try {
    const peer = new Peer(seat, 'answerer', log);
    const { channel, inbox } = await peer.opened;
    try {
      return await receiveBatch(channel, inbox, options.folder, log);
    } finally {
      await peer.close();
    }
  } finally {
    seat.close();
  }
}

// ---- HTTP (signaling spec "Endpoints") ----

async function postCode(serverUrl: string, roomId: string): Promise<string> {
  const { status, body } = await requestJson('POST', new URL('/api/code', serverUrl), { roomId });
  if (status !== 200 || typeof body.code !== 'string') {
    throw new SpecViolation(`POST /api/code answered ${status} ${JSON.stringify(body)}`);
  }
  return body.code;
}

async function getRoomId(serverUrl: string, code: string): Promise<string> {
  const { status, body } = await requestJson('GET', new URL(`/api/code/${code}`, serverUrl));
  if (status !== 200 || typeof body.roomId !== 'string') {
    throw new SpecViolation(`GET /api/code answered ${status} ${JSON.stringify(body)}`);
  }
  return body.roomId;
}

/** One request on its own connection: a short-lived client keeps nothing alive. */
function requestJson(
  method: string,
  url: URL,
  payload?: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const request = httpRequest(
      url,
      {
        method,
        agent: false,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
            if (typeof parsed !== 'object' || parsed === null) {
              throw new SpecViolation(`${method} ${url.pathname} answered no JSON object`);
            }
            resolve({ status: response.statusCode ?? 0, body: parsed as Record<string, unknown> });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

// ---- WebSocket transport (signaling spec "WebSocket: client to server") ----

type ServerMessage = { type: string; [field: string]: unknown };

class Seat {
  readonly #socket: WebSocket;
  readonly #roomId: string;
  readonly #queue: ServerMessage[] = [];
  #waiting: ((message: ServerMessage) => void) | undefined;
  #closed = false;

  private constructor(socket: WebSocket, roomId: string) {
    this.#socket = socket;
    this.#roomId = roomId;
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      const wake = this.#waiting;
      if (wake) {
        this.#waiting = undefined;
        wake(message);
      } else this.#queue.push(message);
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#waiting?.({ type: 'socket-closed' });
    });
  }

  static async join(serverUrl: string, roomId: string, role: string): Promise<Seat> {
    const url = new URL('/ws', serverUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const seat = new Seat(socket, roomId);
    seat.send({ type: 'join-room', roomId });
    const joined = await seat.next('room-joined', ROLE_WAIT_MS);
    if (joined.role !== role) throw new SpecViolation(`expected role ${role}, got ${joined.role}`);
    return seat;
  }

  send(message: object): void {
    if (!this.#closed) this.#socket.send(JSON.stringify(message));
  }

  signal(signal: object): void {
    this.send({ type: 'signal', signal, roomId: this.#roomId });
  }

  /** The next message, which must be of `type`; anything else is a failure. */
  async next(type: string, withinMs: number): Promise<ServerMessage> {
    const message = await this.any(withinMs);
    if (message.type !== type) {
      throw new SpecViolation(`expected ${type} from the server, got ${JSON.stringify(message)}`);
    }
    return message;
  }

  async any(withinMs: number): Promise<ServerMessage> {
    const queued = this.#queue.shift();
    if (queued) return queued;
    if (this.#closed) return { type: 'socket-closed' };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = undefined;
        reject(new SpecViolation(`nothing from the server within ${withinMs} ms`));
      }, withinMs);
      this.#waiting = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
    });
  }

  close(): void {
    this.#closed = true;
    this.#socket.close();
  }
}

// ---- WebRTC (signaling spec "Signaling sequence", data-channel spec "Connection requirement") --

class Peer {
  readonly opened: Promise<{ channel: DataChannel; inbox: Inbox }>;
  readonly #pc: PeerConnection;
  readonly #channels: DataChannel[] = [];
  /** Settles once the other side has closed the connection. */
  readonly #gone: Promise<void>;

  constructor(seat: Seat, role: 'offerer' | 'answerer', log: SpecLog) {
    const pc = new nodeDataChannel.PeerConnection('spec-peer', { iceServers: [] });
    this.#pc = pc;
    this.#gone = new Promise<void>((resolve) =>
      pc.onStateChange((state) => {
        if (state === 'closed' || state === 'failed' || state === 'disconnected') resolve();
      }),
    );
    let remoteSet = false;
    const pendingCandidates: { candidate: string; sdpMid: string }[] = [];
    pc.onLocalDescription((sdp, type) => {
      const withSize =
        type === 'answer' && !/a=max-message-size:/.test(sdp)
          ? sdp.replace(
              /(m=application[^\r\n]*\r?\n)/,
              `$1a=max-message-size:${ANSWER_MAX_MESSAGE_SIZE}\r\n`,
            )
          : sdp;
      log.push(`local ${type}`);
      seat.signal({ type, sdp: withSize });
      log.push('signal out');
    });
    pc.onLocalCandidate((candidate, mid) => {
      seat.signal({ candidate, sdpMid: mid, sdpMLineIndex: 0 });
      log.push('signal out');
    });
    let channelOpen = false;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const opened = new Promise<{ channel: DataChannel; inbox: Inbox }>((resolve, reject) => {
      const adopt = (channel: DataChannel): void => {
        this.#channels.push(channel);
        // Listening from the start: the other side may send the instant its channel opens.
        const inbox = new Inbox(channel);
        const open = (): void => {
          channelOpen = true;
          log.push('channel open');
          resolve({ channel, inbox });
        };
        if (channel.isOpen()) open();
        else channel.onOpen(open);
      };
      if (role === 'offerer') adopt(pc.createDataChannel('spec-peer'));
      else pc.onDataChannel((channel) => adopt(channel));
      deadline = setTimeout(
        () => reject(new SpecViolation('the data channel did not open within 30 s')),
        CONNECT_WINDOW_MS,
      );
      // Signals until the channel is open; the strict rule: the other side leaving the room
      // before this side's channel is open fails the attempt.
      void (async () => {
        while (!channelOpen) {
          const message = await seat.any(CONNECT_WINDOW_MS).catch(() => undefined);
          if (channelOpen) return;
          if (message === undefined) return;
          if (message.type === 'peer-disconnected' || message.type === 'socket-closed') {
            log.push(`${message.type} before the channel opened`);
            reject(new SpecViolation(`${message.type} arrived before this peer's channel opened`));
            return;
          }
          if (message.type !== 'signal') continue;
          const signal = message.signal as Record<string, unknown>;
          if (
            typeof signal.sdp === 'string' &&
            (signal.type === 'offer' || signal.type === 'answer')
          ) {
            if (signal.type !== (role === 'offerer' ? 'answer' : 'offer')) continue;
            log.push(`remote ${signal.type}`);
            pc.setRemoteDescription(signal.sdp, signal.type);
            remoteSet = true;
            for (const candidate of pendingCandidates.splice(0)) {
              pc.addRemoteCandidate(candidate.candidate, candidate.sdpMid);
            }
          } else if (typeof signal.candidate === 'string' && signal.candidate !== '') {
            const candidate = { candidate: signal.candidate, sdpMid: String(signal.sdpMid ?? '0') };
            if (remoteSet) pc.addRemoteCandidate(candidate.candidate, candidate.sdpMid);
            else pendingCandidates.push(candidate);
          }
        }
      })().catch(reject);
    });
    this.opened = opened.finally(() => clearTimeout(deadline));
  }

  /**
   * Closes the channel, whose close travels behind every byte still queued in SCTP, and lets
   * the connection go only once the other side has closed its end (having read everything) or
   * after the grace: node-datachannel reports the local channel closed at once, so closing the
   * connection then would drop the bytes still in flight.
   */
  async close(): Promise<void> {
    for (const channel of this.#channels) if (channel.isOpen()) channel.close();
    await Promise.race([
      this.#gone,
      new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS)),
    ]);
    this.#pc.close();
  }
}

// ---- Frames (data-channel spec "Frame classification") ----

type Frame = { text: string } | { bytes: Buffer };

class Inbox {
  readonly #frames: Frame[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(channel: DataChannel) {
    channel.onMessage((message) => {
      this.#frames.push(
        typeof message === 'string'
          ? { text: message }
          : { bytes: Buffer.from(message as ArrayBuffer) },
      );
      this.#wake?.();
    });
    channel.onClosed(() => {
      this.#closed = true;
      this.#wake?.();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  async next(withinMs: number): Promise<Frame | 'closed'> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const frame = this.#frames.shift();
      if (frame) return frame;
      if (this.#closed) return 'closed';
      const left = deadline - Date.now();
      if (left <= 0) throw new SpecViolation(`no frame within ${withinMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          this.#wake = undefined;
          resolve();
        };
      });
    }
  }
}

/** A control message: at most 1000 bytes of JSON with a `type` (rules 2 and 6). */
function control(raw: string, framing: string): { type: string; [field: string]: unknown } {
  if (Buffer.byteLength(raw) > CONTROL_FRAME_MAX_BYTES) {
    throw new SpecViolation(`a ${framing} control frame is over ${CONTROL_FRAME_MAX_BYTES} bytes`);
  }
  const parsed = JSON.parse(raw.trimStart()) as unknown;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof (parsed as { type?: unknown }).type !== 'string'
  ) {
    throw new SpecViolation(`a ${framing} control frame has no type: ${raw}`);
  }
  return parsed as { type: string };
}

function integer(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new SpecViolation(`${what} is not a non-negative integer: ${JSON.stringify(value)}`);
  }
  return value;
}

// ---- Sender side of the per-file sequence ----

async function sendBatch(
  channel: DataChannel,
  inbox: Inbox,
  files: readonly SpecFile[],
  log: SpecLog,
): Promise<void> {
  const max = channel.maxMessageSize();
  const chunkBytes = max > 0 ? Math.min(max, CHUNK_CAP_BYTES) : CHUNK_FALLBACK_BYTES;
  const totalBytes = files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
  channel.setBufferedAmountLowThreshold(LOW_WATER_BYTES - 1);
  let lowered: (() => void) | undefined;
  let receiverIsNative = false;
  channel.onBufferedAmountLow(() => lowered?.());
  for (const [index, file] of files.entries()) {
    const id = `spec-${index + 1}`;
    channel.sendMessage(
      JSON.stringify({
        type: 'metadata',
        id,
        fileName: file.name,
        fileSize: file.bytes.byteLength,
        index: index + 1,
        total: files.length,
        totalBytes,
        ...VERSION,
      }),
    );
    log.push(`metadata ${index + 1}`);
    for (;;) {
      const frame = await inbox.next(ACK_TIMEOUT_MS);
      if (frame === 'closed')
        throw new SpecViolation(`the channel closed while file ${index + 1} waited for its ack`);
      // Rule 4: a sender accepts control messages in either framing.
      const message = control('text' in frame ? frame.text : frame.bytes.toString('utf8'), 'ack');
      if (message.type === 'incompatible')
        throw new SpecViolation(`incompatible: ${String(message.reason)}`);
      if (message.type !== 'ack') continue; // unknown types are ignored (versioning rule 6)
      if (message.id !== id)
        throw new SpecViolation(`ack for ${String(message.id)}, expected ${id}`);
      receiverIsNative = typeof message.ver === 'string';
      if (integer(message.offset, 'ack offset') !== 0)
        throw new SpecViolation('a current receiver acks offset 0');
      break;
    }
    log.push(`ack ${index + 1}`);
    for (let at = 0; at < file.bytes.byteLength; at += chunkBytes) {
      if (channel.bufferedAmount() > HIGH_WATER_BYTES) {
        await new Promise<void>((resolve) => {
          lowered = resolve;
          if (channel.bufferedAmount() < LOW_WATER_BYTES) resolve();
        });
      }
      if (inbox.closed) throw new SpecViolation(`the channel closed during file ${index + 1}`);
      channel.sendMessageBinary(Buffer.from(file.bytes.subarray(at, at + chunkBytes)));
    }
    channel.sendMessage(JSON.stringify({ type: 'end' }));
    log.push(`end ${index + 1}`);
  }
  // Rule 5: a native sender finishes on `received` or on an empty send buffer. A native receiver
  // (one that announced `ver`) always sends `received`, so this peer waits for it; for anyone
  // else an empty buffer ends the batch.
  if (!receiverIsNative) {
    while (channel.bufferedAmount() > 0) {
      const frame = await inbox.next(BUFFER_CHECK_MS).catch(() => undefined);
      if (frame === 'closed')
        throw new SpecViolation('the channel closed before the batch drained');
    }
    log.push('drained');
    return;
  }
  for (;;) {
    const frame = await inbox.next(60_000);
    if (frame === 'closed') throw new SpecViolation('the channel closed before received arrived');
    const message = control(
      'text' in frame ? frame.text : frame.bytes.toString('utf8'),
      'received',
    );
    if (message.type === 'received') {
      log.push('received');
      return;
    }
    if (message.type === 'incompatible') {
      throw new SpecViolation(`incompatible: ${String(message.reason)}`);
    }
  }
}

// ---- Receiver side of the per-file sequence ----

async function receiveBatch(
  channel: DataChannel,
  inbox: Inbox,
  folder: string,
  log: SpecLog,
): Promise<string[]> {
  const saved: string[] = [];
  let total: number | undefined;
  for (let expected = 1; total === undefined || expected <= total; expected += 1) {
    const frame = await inbox.next(30_000);
    if (frame === 'closed')
      throw new SpecViolation(`the channel closed before file ${expected}'s metadata`);
    // Rule 1: sender to receiver, only a text frame is a control message.
    if (!('text' in frame)) throw new SpecViolation('a binary frame arrived outside a file');
    const metadata = control(frame.text, 'metadata');
    if (metadata.type !== 'metadata')
      throw new SpecViolation(`expected metadata, got ${metadata.type}`);
    const index = integer(metadata.index, 'index');
    total = integer(metadata.total, 'total');
    const fileSize = integer(metadata.fileSize, 'fileSize');
    integer(metadata.totalBytes, 'totalBytes');
    if (index !== expected)
      throw new SpecViolation(`file ${index} arrived where ${expected} was due`);
    if (typeof metadata.id !== 'string' || typeof metadata.fileName !== 'string') {
      throw new SpecViolation('metadata without id or fileName');
    }
    const name = metadata.fileName;
    const path = normalize(join(folder, ...name.split('/')));
    if (!path.startsWith(folder + sep)) throw new SpecViolation(`unsafe name ${name}`);
    await mkdir(dirname(path), { recursive: true });
    const part: FileHandle = await open(`${path}.part`, 'wx');
    // Native receivers send ack, received and incompatible as binary (rule 4).
    channel.sendMessageBinary(
      Buffer.from(JSON.stringify({ type: 'ack', id: metadata.id, offset: 0, ...VERSION })),
    );
    log.push(`ack ${index}`);
    let written = 0;
    try {
      for (;;) {
        const data = await inbox.next(60_000);
        if (data === 'closed') throw new SpecViolation(`the channel closed inside file ${index}`);
        if ('bytes' in data) {
          written += data.bytes.byteLength;
          if (written > fileSize)
            throw new SpecViolation(`file ${index} overran its announced size`);
          await part.write(data.bytes);
          continue;
        }
        const message = control(data.text, 'end');
        if (message.type === 'end') break;
        if (message.type === 'incompatible')
          throw new SpecViolation(`incompatible: ${String(message.reason)}`);
      }
    } finally {
      await part.close();
    }
    if (written !== fileSize)
      throw new SpecViolation(`file ${index}: ${written} of ${fileSize} bytes`);
    await rename(`${path}.part`, path);
    if ((await stat(path)).size !== fileSize)
      throw new SpecViolation(`file ${index} is not whole on disk`);
    saved.push(name);
    log.push(`saved ${index}`);
  }
  // After the batch a native receiver sends `received`; a channel already closed fails here.
  if (inbox.closed) throw new SpecViolation('the channel closed before received could be sent');
  channel.sendMessageBinary(Buffer.from(JSON.stringify({ type: 'received' })));
  log.push('received sent');
  // Teardown grace: the sender closes once it has `received`.
  const last = await inbox.next(5000).catch(() => 'closed' as const);
  if (last !== 'closed') throw new SpecViolation('a frame arrived after the batch');
  return saved;
}
