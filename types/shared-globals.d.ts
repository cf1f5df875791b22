// The few web-platform globals that exist in every runtime Ferry targets (Node, Electron,
// browsers), so src-shared may use them without pulling in Node or DOM typings wholesale.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly origin: string;
  readonly pathname: string;
  readonly port: string;
  readonly search: string;
  readonly username: string;
  readonly password: string;
  href: string;
  toString(): string;
}
// Cancellation is the platform's AbortSignal in Node and in browsers alike.
interface AbortSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

interface AbortController {
  readonly signal: AbortSignal;
  abort(): void;
}
declare const AbortController: { new (): AbortController };
