// The receiver's half of the data-channel spec's per-file sequence: metadata, ack, chunks, end,
// each file staged and checked before it counts, then `received` when this peer plays a native
// receiver.
import type { FrameInbox, SpecChannel } from './channel';
import {
  decodeForReceiver,
  encodeControl,
  utf8Bytes,
  versionsOverlap,
  type Metadata,
  type Profile,
} from './control-frames';
import { failure, violation, type Trace, type Tripwire } from './failure';
import {
  ABORT_FLUSH_MS,
  BUFFER_POLL_MS,
  FIRST_DATA_MS,
  NO_PROGRESS_MS,
  PROTOCOL_VERSION,
  REASON_DISPLAY_CHARS,
  SPEC_PEER_VER,
  TEARDOWN_GRACE_MS,
} from './limits';

/** One file being written: staged (a `.part` on disk), then committed or discarded. */
export interface PartFile<Saved> {
  write(bytes: Uint8Array): Promise<void>;
  /** Checks the staged byte count against `size` once more and makes the file final. */
  commit(): Promise<Saved>;
  discard(): Promise<void>;
}

export interface FileSink<Saved> {
  /** Stages `name` (already checked to be a safe relative path) of `size` bytes. */
  open(name: string, size: number): Promise<PartFile<Saved>>;
}

export interface ReceiveOutcome<Saved> {
  saved: Saved[];
  /** The sender's `ver`; absent when it is a browser sender. */
  senderVer: string | undefined;
  /** This peer sent `received` (it plays a native receiver and the channel was still open). */
  receivedSent: boolean;
}

export interface ReceiveContext {
  channel: SpecChannel;
  inbox: FrameInbox;
  tripwire: Tripwire;
  trace: Trace;
  profile: Profile;
}

interface Batch {
  total: number;
  totalBytes: number;
  senderVer: string | undefined;
  ids: Set<string>;
  bytes: number;
}

export async function receiveBatch<Saved>(
  context: ReceiveContext,
  sink: FileSink<Saved>,
): Promise<ReceiveOutcome<Saved>> {
  const { inbox, tripwire, trace, profile } = context;
  const saved: Saved[] = [];
  let batch: Batch | undefined;
  for (let expected = 1; batch === undefined || expected <= batch.total; expected += 1) {
    const metadata = await awaitMetadata(context, expected, batch === undefined);
    batch = checkBatch(batch, metadata);
    await refuseUnless(context, versionsOverlap(metadata), () => {
      const range = `${metadata.pvMin ?? 1}..${metadata.pv ?? 1}`;
      return `the sender speaks protocol ${range}; this receiver speaks ${PROTOCOL_VERSION.pvMin}..${PROTOCOL_VERSION.pv}`;
    });
    const unsafe = unsafeName(metadata.fileName);
    await refuseUnless(context, unsafe === undefined, () => `refused file name: ${unsafe}`);
    saved.push(await receiveFile(context, sink, metadata));
    batch.bytes += metadata.fileSize;
  }
  // Older senders may announce 0 for a single file (metadata.totalBytes); otherwise the batch
  // size must be what the files added up to.
  if (batch.totalBytes !== batch.bytes && !(batch.total === 1 && batch.totalBytes === 0)) {
    throw violation(`totalBytes announced ${batch.totalBytes}; the files held ${batch.bytes}`);
  }

  let receivedSent = false;
  if (profile === 'native') {
    // The spec's "What the service does": after the whole batch a native receiver sends
    // received. A channel that closed first denied it that: a failed transfer for this peer.
    if (inbox.closed) throw failure('the channel closed before received could be sent');
    sendBinaryControl(context, { type: 'received' });
    receivedSent = true;
    trace.record('sent received');
  }
  await teardownGrace(inbox, tripwire, trace, profile);
  return { saved, senderVer: batch.senderVer, receivedSent };
}

async function awaitMetadata(
  context: ReceiveContext,
  expected: number,
  first: boolean,
): Promise<Metadata> {
  const { inbox, tripwire, trace, profile } = context;
  for (;;) {
    const arrived = await inbox.next(
      first ? FIRST_DATA_MS : NO_PROGRESS_MS,
      `file ${expected}'s metadata was awaited`,
      tripwire,
    );
    if (arrived === 'closed') {
      throw failure(`the channel closed before file ${expected}'s metadata`);
    }
    if (arrived.frame.kind === 'binary') {
      throw violation(`a binary frame arrived outside any file, before file ${expected}`);
    }
    const decoded = decodeForReceiver(arrived.frame.text, profile);
    if (!decoded.known) {
      trace.record(`ignored a message of unknown type "${decoded.type}"`);
      continue;
    }
    const message = decoded.message;
    if (message.type === 'incompatible') throw refusedBySender(message.reason);
    if (message.type !== 'metadata') {
      throw violation(`"${message.type}" arrived where file ${expected}'s metadata was due`);
    }
    if (message.index !== expected) {
      throw violation(`metadata for file ${message.index} arrived where ${expected} was due`);
    }
    trace.record(
      `metadata ${message.index}/${message.total} ${message.fileName} (${message.fileSize} bytes)`,
    );
    return message;
  }
}

function checkBatch(batch: Batch | undefined, metadata: Metadata): Batch {
  if (batch === undefined) {
    return {
      total: metadata.total,
      totalBytes: metadata.totalBytes,
      senderVer: metadata.ver,
      ids: new Set([metadata.id]),
      bytes: 0,
    };
  }
  if (metadata.total !== batch.total) {
    throw violation(
      `file ${metadata.index} says total ${metadata.total}, file 1 said ${batch.total}`,
    );
  }
  if (metadata.totalBytes !== batch.totalBytes) {
    throw violation(
      `file ${metadata.index} says totalBytes ${metadata.totalBytes}, file 1 said ${batch.totalBytes}`,
    );
  }
  if (metadata.ver !== batch.senderVer) {
    throw violation(
      `file ${metadata.index} says ver ${metadata.ver}, file 1 said ${batch.senderVer}`,
    );
  }
  if (batch.ids.has(metadata.id)) throw violation(`file id "${metadata.id}" came twice`);
  batch.ids.add(metadata.id);
  return batch;
}

async function receiveFile<Saved>(
  context: ReceiveContext,
  sink: FileSink<Saved>,
  metadata: Metadata,
): Promise<Saved> {
  const { channel, inbox, tripwire, trace, profile } = context;
  const { index, fileSize } = metadata;
  const part = await sink.open(metadata.fileName, fileSize);
  try {
    const ack = { type: 'ack', id: metadata.id, offset: 0, ...PROTOCOL_VERSION };
    // Frame classification rule 4: a native receiver sends its ack as binary, a browser as text.
    if (profile === 'native') sendBinaryControl(context, { ...ack, ver: SPEC_PEER_VER });
    else {
      if (inbox.closed) throw failure(`the channel closed before file ${index}'s ack could go`);
      channel.sendText(encodeControl(ack));
    }
    // Frames that had arrived by now came before the ack: file data among them jumped the gun.
    const ackedAfter = inbox.arrived;
    trace.record(`sent ack ${index} (${profile === 'native' ? 'binary' : 'text'})`);

    let written = 0;
    for (;;) {
      const arrived = await inbox.next(
        NO_PROGRESS_MS,
        `file ${index} was at ${written} of ${fileSize} bytes`,
        tripwire,
      );
      if (arrived === 'closed') {
        throw failure(
          `the channel closed inside file ${index}, at ${written} of ${fileSize} bytes`,
        );
      }
      const { frame } = arrived;
      if (frame.kind === 'binary') {
        if (arrived.seq <= ackedAfter) {
          throw violation(`file ${index}'s data arrived before this receiver had sent its ack`);
        }
        written += frame.bytes.byteLength;
        if (written > fileSize) {
          await refuse(context, `file ${index} overran its announced ${fileSize} bytes`);
        }
        await part.write(frame.bytes);
        continue;
      }
      const decoded = decodeForReceiver(frame.text, profile);
      if (!decoded.known) {
        trace.record(`ignored a message of unknown type "${decoded.type}"`);
        continue;
      }
      const message = decoded.message;
      if (message.type === 'incompatible') throw refusedBySender(message.reason);
      if (message.type !== 'end') {
        throw violation(`"${message.type}" arrived inside file ${index}, before its end`);
      }
      break;
    }
    if (written !== fileSize) {
      await refuse(context, `file ${index} ended at ${written} of its announced ${fileSize} bytes`);
    }
    const saved = await part.commit();
    trace.record(`saved file ${index} (${written} bytes)`);
    return saved;
  } catch (error) {
    await part.discard();
    throw error;
  }
}

/** Data-channel spec, frame classification rule 4: receiver to sender is binary. */
function sendBinaryControl(
  context: ReceiveContext,
  message: Record<string, unknown> & { type: string },
): void {
  context.tripwire.check();
  if (context.inbox.closed) throw failure(`the channel closed before ${message.type} could go`);
  context.channel.sendBinary(utf8Bytes(encodeControl(message)));
}

async function refuseUnless(
  context: ReceiveContext,
  acceptable: boolean,
  reason: () => string,
): Promise<void> {
  if (!acceptable) await refuse(context, reason());
}

/**
 * Data-channel spec, "incompatible": the receiver's deliberate abort, as binary, flushed for up
 * to 2 s, then the attempt fails. What the sender did to deserve it is the violation.
 */
async function refuse(context: ReceiveContext, reason: string): Promise<never> {
  const message = {
    type: 'incompatible',
    reason,
    ...PROTOCOL_VERSION,
    ...(context.profile === 'native' ? { ver: SPEC_PEER_VER } : {}),
  };
  if (!context.inbox.closed) {
    context.channel.sendBinary(utf8Bytes(encodeControl(message)));
    const until = Date.now() + ABORT_FLUSH_MS;
    while (context.channel.bufferedAmount() > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, BUFFER_POLL_MS));
    }
  }
  context.trace.record(`sent incompatible: ${reason}`);
  throw violation(reason);
}

function refusedBySender(reason: string): Error {
  return failure(`the sender sent incompatible: ${reason.slice(0, REASON_DISPLAY_CHARS)}`);
}

/**
 * After the batch the sender closes; this peer gives it the spec's 5 s teardown grace. Nothing
 * but unknown types may arrive meanwhile.
 */
async function teardownGrace(
  inbox: FrameInbox,
  tripwire: Tripwire,
  trace: Trace,
  profile: Profile,
): Promise<void> {
  const until = Date.now() + TEARDOWN_GRACE_MS;
  for (let left = TEARDOWN_GRACE_MS; left > 0; left = until - Date.now()) {
    let arrived;
    try {
      arrived = await inbox.next(left, 'the sender closed after the batch', tripwire);
    } catch (error) {
      if (tripwire.failure) throw error;
      trace.record(`the sender had not closed after ${TEARDOWN_GRACE_MS} ms; closing`);
      return;
    }
    if (arrived === 'closed') {
      trace.record('the sender closed the channel');
      return;
    }
    if (arrived.frame.kind === 'binary') throw violation('a binary frame arrived after the batch');
    const decoded = decodeForReceiver(arrived.frame.text, profile);
    if (decoded.known) throw violation(`"${decoded.message.type}" arrived after the batch`);
  }
}

/**
 * Why `name` is no safe relative path, or undefined when it is one. The spec has the receiver
 * sanitize names; a current sender sends `folder/sub/file` forms only, so anything that would
 * need sanitizing is refused here.
 */
export function unsafeName(name: string): string | undefined {
  if (/[\\\0]/.test(name)) return `${JSON.stringify(name)} holds a backslash or NUL`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return `${JSON.stringify(name)} is absolute`;
  const segments = name.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return `${JSON.stringify(name)} has an empty, "." or ".." segment`;
  }
  return undefined;
}
