import { VERIFY_BLOCKS_IN_FLIGHT } from '../../../src-shared/protocol/limits';
import type { BlockSha256 } from '../../../src-shared/verify/hash-functions';
import type { HashAnswer, HashRequest } from './hash-worker-messages';

/** The part of a Worker used here. */
export interface HashThread {
  postMessage(message: HashRequest, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HashAnswer>) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

/**
 * Whole blocks hashed in a pool of dedicated workers, one block to each in turn: the JavaScript
 * SHA-256 a page without WebCrypto falls back on runs well under a transfer's rate on one core
 * (docs/performance.md, "Hashing on pages without WebCrypto"), and on the page's own thread it
 * would stall receiving and drawing. At most VERIFY_BLOCKS_IN_FLIGHT workers (no more blocks are
 * ever hashing at once), one core left to the page.
 */
export function workerPoolSha256(newThread: () => HashThread, cores: number): BlockSha256 {
  const size = Math.max(1, Math.min(VERIFY_BLOCKS_IN_FLIGHT, cores - 1));
  const threads: HashThread[] = [];
  const waiting = new Map<
    number,
    { resolve(digest: Uint8Array): void; reject(error: Error): void }
  >();
  let nextId = 0;
  const answered = ({ data }: MessageEvent<HashAnswer>) => {
    const request = waiting.get(data.id);
    waiting.delete(data.id);
    if ('digest' in data) request?.resolve(data.digest);
    else request?.reject(new Error(data.error));
  };
  return (block) => {
    const id = nextId;
    nextId += 1;
    if (threads.length < size) {
      const thread = newThread();
      thread.addEventListener('message', answered);
      // A worker that cannot start would leave its blocks waiting for ever: the digest fails.
      thread.addEventListener('error', () => {
        for (const request of waiting.values()) request.reject(new Error('a hash worker failed'));
        waiting.clear();
      });
      threads.push(thread);
    }
    // A copy, handed over: the caller refills its buffer as soon as this returns.
    const copy = block.slice();
    const hashed = new Promise<Uint8Array>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
    });
    threads[id % threads.length].postMessage({ id, block: copy }, [copy.buffer]);
    return hashed;
  };
}
