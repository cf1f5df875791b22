import { TEXT_MESSAGE_FILE_NAME, TEXT_MESSAGE_MAX_BYTES } from '../protocol/limits';
import type { FileSource, SourceReader } from './file-source';
import type { SaveTarget } from './save-target';

const utf8 = new TextEncoder();

/** How many bytes a text takes on the wire, as UTF-8. */
export function textMessageBytes(text: string): number {
  return utf8.encode(text).byteLength;
}

/** Why a text cannot be sent as a message, or undefined when it can (docs/protocol.md, "Text messages"). */
export function textMessageProblem(text: string): string | undefined {
  if (text.length === 0) return 'the text is empty';
  const bytes = textMessageBytes(text);
  return bytes > TEXT_MESSAGE_MAX_BYTES
    ? `the text is ${bytes} bytes; at most ${TEXT_MESSAGE_MAX_BYTES} can be sent as a text`
    : undefined;
}

/**
 * A text as the one file of a batch, `message.txt` in UTF-8, read from memory on every surface:
 * a spec-only receiver saves exactly these bytes.
 */
export function textSource(text: string): FileSource {
  const bytes = utf8.encode(text);
  return {
    name: TEXT_MESSAGE_FILE_NAME,
    size: bytes.byteLength,
    async open(offset, chunkBytes) {
      let position = offset;
      const reader: SourceReader = {
        get done() {
          return position >= bytes.byteLength;
        },
        async next() {
          const end = Math.min(bytes.byteLength, position + Math.max(1, chunkBytes));
          const chunk = bytes.subarray(position, end);
          position = end;
          return { kind: 'bytes', bytes: chunk };
        },
        change: async () => undefined,
        close: async () => undefined,
      };
      return reader;
    },
  };
}

/** Where a text message goes on a receiver that shows it: memory, never a file. */
export interface TextTarget extends SaveTarget {
  /** The text, once its file was committed (after its digest checked out, when verified). */
  readonly text: string | undefined;
}

/** Keeps file 0's bytes in memory and decodes them as UTF-8 on commit. */
export function textTarget(): TextTarget {
  let chunks: Uint8Array[] | undefined;
  let text: string | undefined;
  return {
    get text() {
      return text;
    },
    async open() {
      chunks = [];
      text = undefined;
    },
    async write(_index, bytes) {
      // The core may reuse its buffer once the write is handed over: keep a copy.
      chunks?.push(bytes.slice());
    },
    async commit() {
      if (chunks === undefined) throw new Error('the text message is not open');
      const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
      let at = 0;
      for (const chunk of chunks) {
        whole.set(chunk, at);
        at += chunk.byteLength;
      }
      chunks = undefined;
      text = new TextDecoder().decode(whole);
      return { name: TEXT_MESSAGE_FILE_NAME };
    },
    async discard() {
      chunks = undefined;
    },
  };
}
