import { binaryFrame, textFrame, type Frame } from '../../../src-shared/protocol/frame';

/** A message as RTCDataChannel delivers it (binaryType 'arraybuffer') as a protocol frame. */
export function frameOf(data: unknown): Frame | undefined {
  if (typeof data === 'string') return textFrame(data);
  if (data instanceof ArrayBuffer) return binaryFrame(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) {
    return binaryFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  return undefined;
}

/** Sends a frame in its own framing: text as a string message, binary as a binary one. */
export function sendFrame(channel: RTCDataChannel, frame: Frame): void {
  if (frame.kind === 'text') channel.send(frame.text);
  else channel.send(frame.bytes as Uint8Array<ArrayBuffer>);
}
