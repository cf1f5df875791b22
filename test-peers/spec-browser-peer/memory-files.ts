// Files in the page's memory: the browser spec peer sends bytes the test handed it and keeps
// what it receives, reporting each file's size and SHA-256 rather than its bytes.
import { failure } from '../spec-peer/failure';
import type { FileSink, PartFile } from '../spec-peer/receive-batch';
import type { SourceFile } from '../spec-peer/send-batch';

/** A file as the test hands it to the page: page arguments carry strings, not bytes. */
export interface PageFile {
  name: string;
  base64: string;
}

export interface DigestedFile {
  name: string;
  size: number;
  sha256: string;
}

export function pageSources(files: readonly PageFile[]): SourceFile[] {
  return files.map((file) => {
    const binary = atob(file.base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return {
      name: file.name,
      size: bytes.byteLength,
      read: async (offset, length) => bytes.subarray(offset, offset + length),
    };
  });
}

export class MemorySink implements FileSink<DigestedFile> {
  async open(name: string, size: number): Promise<PartFile<DigestedFile>> {
    let parts: Uint8Array[] = [];
    let written = 0;
    return {
      write: async (bytes) => {
        parts.push(bytes);
        written += bytes.byteLength;
      },
      commit: async () => {
        if (written !== size) throw failure(`${name} holds ${written} bytes, not ${size}`);
        const whole = new Uint8Array(written);
        let at = 0;
        for (const part of parts) {
          whole.set(part, at);
          at += part.byteLength;
        }
        const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', whole));
        const sha256 = Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('');
        return { name, size, sha256 };
      },
      discard: async () => {
        parts = [];
      },
    };
  }
}
