import { binaryFrame, textFrame, utf8ByteLength, type Frame, type Framing } from './frame';
import { CONTROL_FRAME_MAX_BYTES } from './limits';
import type { ControlMessage, ExtensionMessage, IncompatibleMessage } from './messages';

const utf8 = new TextEncoder();

/**
 * The JSON of a control message with its fields in the order of docs/protocol.md, "Messages",
 * and absent optional fields left out. An `incompatible` reason is first cut to keep the frame
 * within 1000 bytes.
 */
export function encodeControlJson(message: ControlMessage | ExtensionMessage): string {
  switch (message.type) {
    case 'metadata':
      return JSON.stringify({
        type: message.type,
        id: message.id,
        fileName: message.fileName,
        fileSize: message.fileSize,
        index: message.index,
        total: message.total,
        totalBytes: message.totalBytes,
        pv: message.pv,
        pvMin: message.pvMin,
        ver: message.ver,
      });
    case 'ack':
      return JSON.stringify({
        type: message.type,
        id: message.id,
        offset: message.offset,
        pv: message.pv,
        pvMin: message.pvMin,
        ver: message.ver,
      });
    case 'end':
    case 'received':
    case 'ferry-alive':
      return JSON.stringify({ type: message.type });
    case 'ferry-caps':
      return JSON.stringify({
        type: message.type,
        caps: message.caps,
        commit: message.commit,
        nonce: message.nonce,
        name: message.name,
        text: message.text,
        rejoin: message.rejoin,
        pair: message.pair,
      });
    case 'ferry-sas-reveal':
      return JSON.stringify({ type: message.type, nonce: message.nonce });
    case 'ferry-link-proof':
      return JSON.stringify({ type: message.type, mac: message.mac });
    case 'ferry-outcome':
      return JSON.stringify({ type: message.type, outcome: message.outcome });
    case 'ferry-resume':
      return JSON.stringify({
        type: message.type,
        id: message.id,
        offset: message.offset,
        prefix: message.prefix,
      });
    case 'ferry-start':
      return JSON.stringify({ type: message.type, id: message.id, offset: message.offset });
    case 'ferry-digest':
      return JSON.stringify({ type: message.type, id: message.id, sha256: message.sha256 });
    case 'ferry-verified':
      return JSON.stringify({ type: message.type, id: message.id });
    case 'ferry-progress':
      return JSON.stringify({ type: message.type, index: message.index, bytes: message.bytes });
    case 'ferry-list':
      return JSON.stringify({
        type: message.type,
        files: message.files.map(({ name, size }) => ({ name, size })),
        more: message.more,
      });
    case 'incompatible':
      return incompatibleJson(fitIncompatible(message));
  }
}

/** A control message as a frame of the given framing (binary frames carry the JSON as UTF-8). */
export function encodeMessage(message: ControlMessage | ExtensionMessage, framing: Framing): Frame {
  const json = encodeControlJson(message);
  return framing === 'text' ? textFrame(json) : binaryFrame(utf8.encode(json));
}

function incompatibleJson(message: IncompatibleMessage): string {
  return JSON.stringify({
    type: message.type,
    reason: message.reason,
    pv: message.pv,
    pvMin: message.pvMin,
    ver: message.ver,
  });
}

/**
 * Cuts the reason, code point by code point and counting JSON escapes, so the whole encoded frame
 * stays within the control-frame limit. The informational `ver` goes first if even an empty
 * reason would not fit beside it.
 */
export function fitIncompatible(message: IncompatibleMessage): IncompatibleMessage {
  let fitted: IncompatibleMessage = { ...message, reason: '' };
  if (utf8ByteLength(incompatibleJson(fitted)) > CONTROL_FRAME_MAX_BYTES) {
    fitted = { type: 'incompatible', reason: '', pv: message.pv, pvMin: message.pvMin };
  }
  const budget = CONTROL_FRAME_MAX_BYTES - utf8ByteLength(incompatibleJson(fitted));
  let used = 0;
  let kept = '';
  for (const codePoint of message.reason) {
    // JSON.stringify of a string is the concatenation of each code point's own escape.
    const cost = utf8ByteLength(JSON.stringify(codePoint)) - 2;
    if (used + cost > budget) break;
    used += cost;
    kept += codePoint;
  }
  return { ...fitted, reason: kept };
}
