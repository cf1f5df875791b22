import { ERROR_MESSAGES } from './error-codes';
import type { Refusal } from './refusal';

// The receiver's reasons for stopping a file, each told to the sender as it is worded here.

/** A file description the receiver will not take. */
export function badMetadata(problem: string): Refusal {
  const reason = `${ERROR_MESSAGES.ERR_BAD_METADATA}: ${problem}`;
  return { failure: { code: 'ERR_BAD_METADATA', message: reason }, reason };
}

/** A frame out of the per-file sequence. */
export function protocolBroken(problem: string): Refusal {
  return {
    failure: { code: 'ERR_PROTOCOL', message: `${ERROR_MESSAGES.ERR_PROTOCOL}: ${problem}` },
    reason: `the receiving device stopped the transfer: ${problem}`,
  };
}

/**
 * More bytes than announced arrived: caught on the frame that crosses the size, never written.
 * A file without a usable size has room for none.
 */
export function overrun(path: string, fileSize: number, sizeAnnounced: boolean): Refusal {
  if (!sizeAnnounced) {
    return {
      failure: {
        code: 'ERR_SIZE_MISMATCH',
        message: `${path} was discarded: the sender announced no usable size`,
      },
      reason: `${path} was discarded: your device announced no usable size for it`,
    };
  }
  const reason = `${path} was discarded: more than the announced ${fileSize} bytes arrived`;
  return { failure: { code: 'ERR_OVERRUN', message: reason }, reason };
}

/** `end` came before the announced size arrived. */
export function shortFile(path: string, written: number, fileSize: number): Refusal {
  const reason = `${path} was discarded: ${written} of ${fileSize} bytes arrived`;
  return { failure: { code: 'ERR_SIZE_MISMATCH', message: reason }, reason };
}

export function unwritable(path: string, detail: string): Refusal {
  return {
    failure: { code: 'ERR_DISK', message: `${path} could not be written (${detail})` },
    reason: `${path} was discarded: the receiving device could not write it`,
  };
}

/** What arrived is not what the sender's digest says (docs/protocol.md, "Verification"). */
export function digestMismatch(path: string): Refusal {
  const reason = `${path} was discarded: what arrived did not match the digest your device sent`;
  return { failure: { code: 'ERR_VERIFY_FAILED', message: reason }, reason };
}
