import { ERROR_MESSAGES } from './error-codes';
import { encodeMessage } from './encode';
import { frameByteLength, type Frame } from './frame';
import { CONTROL_FRAME_MAX_BYTES, RELAY_SIZE_CAP_BYTES } from './limits';
import type { Refusal } from './refusal';
import type { SenderConfig } from './sender-types';

// The sender's reasons for stopping, each told to the receiver as it is worded here.

/**
 * File `index`'s metadata frame, or why it cannot be sent: past the relay size cap on a relayed
 * route, or a name too long for a control frame (data-channel-protocol.md, "Limits").
 */
export function metadataFrame(
  config: Pick<SenderConfig, 'files' | 'local'>,
  index: number,
  totalBytes: number,
  relayed: boolean,
): Frame | Refusal {
  const { files, local } = config;
  const file = files[index];
  if (relayed && file.fileSize > RELAY_SIZE_CAP_BYTES) {
    const reason = `${file.fileName} is larger than the 2 GiB limit for relayed connections`;
    return { failure: { code: 'ERR_RELAY_SIZE_CAP', message: reason }, reason };
  }
  const { id, fileName, fileSize } = file;
  const { pv, pvMin, ver } = local;
  const total = files.length;
  const metadata = encodeMessage(
    {
      type: 'metadata',
      id,
      fileName,
      fileSize,
      index: index + 1,
      total,
      totalBytes,
      pv,
      pvMin,
      ver,
    },
    'text',
  );
  if (frameByteLength(metadata) <= CONTROL_FRAME_MAX_BYTES) return metadata;
  return {
    failure: { code: 'ERR_NAME_TOO_LONG', message: `${fileName} has a name too long to announce` },
    reason: `file ${index + 1} has a name too long to announce, so the transfer stopped`,
  };
}

/** The source changed while it was sent: the receiver is told so, and no end marker is sent. */
export function sourceChanged(name: string, detail: string): Refusal {
  return {
    failure: {
      code: 'ERR_SOURCE_CHANGED',
      message: `${name} changed on disk while it was being sent (${detail})`,
    },
    reason: `${name} changed on the sending device while it was being sent`,
  };
}

/** The source could not be read; `detail` stays on this side. */
export function sourceUnreadable(name: string, detail: string): Refusal {
  return {
    failure: { code: 'ERR_SOURCE_UNREADABLE', message: `${name} could not be read (${detail})` },
    reason: `${name} could not be read on the sending device`,
  };
}

/** The receiver asked for an offset it cannot have. */
export function badOffset(asked: string): Refusal {
  const reason = `the receiving device asked to ${asked}`;
  return {
    failure: { code: 'ERR_PROTOCOL', message: `${ERROR_MESSAGES.ERR_PROTOCOL}: ${reason}` },
    reason,
  };
}
