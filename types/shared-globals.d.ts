// The UTF-8 codecs exist in every runtime Ferry targets (Node, Electron, browsers), so
// src-shared may use them without pulling in Node or DOM typings wholesale.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
