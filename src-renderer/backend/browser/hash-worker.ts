// A dedicated worker that hashes whole blocks for a page without WebCrypto, so the page's own
// thread keeps receiving and drawing (docs/architecture.md, "Hashing"). It is no secure context
// either, so the shared sha256 takes its JavaScript path here.
import { sha256 } from '../../../src-shared/verify/hash-functions';
import type { HashAnswer, HashRequest } from './hash-worker-messages';

// The DOM library describes a window; this is the one worker shape used here.
declare const self: {
  onmessage: ((event: MessageEvent<HashRequest>) => void) | null;
  postMessage(message: HashAnswer, transfer: Transferable[]): void;
};

self.onmessage = ({ data: { id, block } }) => {
  sha256(block).then(
    (digest) => self.postMessage({ id, digest }, [digest.buffer]),
    (error: unknown) => self.postMessage({ id, error: String(error) }, []),
  );
};
