import {
  parseJsonObject,
  readReceiverMessage,
  readSenderMessage,
  type ControlReading,
  type IgnoredWhy,
} from './decode-control';
import { utf8ByteLength, type Frame } from './frame';
import { CONTROL_FRAME_MAX_BYTES } from './limits';
import type { ReceiverWireMessage, SenderWireMessage } from './messages';

/** Which implementation runs this side; it decides framing details the spec lets differ. */
export type Surface = 'native' | 'browser';

/** A frame that stops the transfer: a control frame over the size limit. */
export interface ProtocolError {
  kind: 'protocol-error';
  problem: string;
}

/** What a receiver makes of a frame from the sender. */
export type FromSender =
  { kind: 'file-data'; bytes: Uint8Array } | ControlReading<SenderWireMessage> | ProtocolError;

/** What a sender makes of a frame from the receiver. */
export type FromReceiver = ControlReading<ReceiverWireMessage> | ProtocolError;

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Sender to receiver: a binary frame is file data whatever its bytes spell, and a text frame is
 * control. A native receiver skips leading whitespace before `{`; a browser receiver requires the
 * frame to start with it. Never throws.
 */
export function classifyFrameFromSender(frame: Frame, receiver: Surface): FromSender {
  if (frame.kind === 'binary') return { kind: 'file-data', bytes: frame.bytes };
  const oversized = checkSize(frame);
  if (oversized) return oversized;
  const start = receiver === 'native' ? skipJsonWhitespace(frame.text) : 0;
  const opening = openingBrace(frame.text, start);
  if (opening) return { kind: 'ignored', why: opening };
  const json = parseJsonObject(frame.text);
  return typeof json === 'string' ? { kind: 'ignored', why: json } : readSenderMessage(json);
}

/**
 * Receiver to sender carries no file data, so control is accepted in either framing; a binary
 * frame is read as UTF-8 JSON. Leading whitespace is tolerated. Never throws.
 */
export function classifyFrameFromReceiver(frame: Frame): FromReceiver {
  const oversized = checkSize(frame);
  if (oversized) return oversized;
  let text: string;
  if (frame.kind === 'text') text = frame.text;
  else {
    try {
      text = fatalUtf8.decode(frame.bytes);
    } catch {
      return { kind: 'ignored', why: 'not-utf8' };
    }
  }
  const opening = openingBrace(text, skipJsonWhitespace(text));
  if (opening) return { kind: 'ignored', why: opening };
  const json = parseJsonObject(text);
  return typeof json === 'string' ? { kind: 'ignored', why: json } : readReceiverMessage(json);
}

function checkSize(frame: Frame): ProtocolError | undefined {
  const bytes =
    frame.kind === 'binary'
      ? frame.bytes.byteLength
      : utf8ByteLength(frame.text, CONTROL_FRAME_MAX_BYTES);
  return bytes > CONTROL_FRAME_MAX_BYTES
    ? {
        kind: 'protocol-error',
        problem: `a control frame of more than ${CONTROL_FRAME_MAX_BYTES} bytes arrived`,
      }
    : undefined;
}

function openingBrace(text: string, start: number): IgnoredWhy | undefined {
  if (text[start] === '{') return undefined;
  return text[skipJsonWhitespace(text)] === '{' ? 'leading-whitespace' : 'not-an-object';
}

/** Index of the first character that is not JSON whitespace (space, tab, line feed, return). */
function skipJsonWhitespace(text: string): number {
  let i = 0;
  while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i += 1;
  return i;
}
