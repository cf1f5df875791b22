/**
 * One data-channel message as the transport delivers it. Framing is the whole envelope: the spec
 * has no length prefix, so text versus binary is the only thing that tells control from data.
 */
export type Frame = { kind: 'text'; text: string } | { kind: 'binary'; bytes: Uint8Array };

export type Framing = Frame['kind'];

/**
 * UTF-8 length of a string as TextEncoder would encode it (a lone surrogate becomes U+FFFD, three
 * bytes). Counting stops early past `stopAfter`, so an enormous frame is never walked in full.
 */
export function utf8ByteLength(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= stopAfter; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** The frame's size on the wire in bytes, the measure of the 1000-byte control-frame limit. */
export function frameByteLength(frame: Frame): number {
  return frame.kind === 'binary' ? frame.bytes.byteLength : utf8ByteLength(frame.text);
}

export function textFrame(text: string): Frame {
  return { kind: 'text', text };
}

export function binaryFrame(bytes: Uint8Array): Frame {
  return { kind: 'binary', bytes };
}
