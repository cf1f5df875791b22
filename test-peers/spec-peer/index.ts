// A strict, independent peer written from the two spec documents alone (the signaling server and
// the data-channel protocol), for tests that pair Ferry with something that is not Ferry. It
// imports nothing from src-shared, src-main or src-renderer on purpose (independence.test.ts
// holds it to that): a behaviour both sides shared could never show up otherwise. Where the spec
// leaves a choice open, it takes the least forgiving one, and it fails loudly with what it saw.
import type { Profile } from './control-frames';
import { DiskSink, sourceFiles, type SavedFile, type SpecFile } from './disk-files';
import { createNativePeer } from './native-peer';
import {
  runReceive,
  runSend,
  type ReceiveResult,
  type SendResult,
  type SpecRuntime,
} from './run-peer';
import { createWsSeat } from './ws-seat';

export { SpecPeerError } from './failure';
export type { ReceiveResult, SendResult } from './run-peer';
export type { SavedFile, SpecFile } from './disk-files';
export type { Profile } from './control-frames';

const NATIVE: SpecRuntime = {
  createSeat: createWsSeat,
  createPeer: createNativePeer,
  raiseAnswerMaxMessageSize: true,
};

export interface SpecSendOptions {
  /** The signaling server's base address. */
  serverUrl: string;
  files: readonly SpecFile[];
  /** Called with the code once this peer holds the sender's seat in the room. */
  onCode?: (code: string) => void;
  /** Which kind of sender's rules to follow; a native one (the default) expects `received`. */
  profile?: Profile;
  peerJoinMs?: number;
  /**
   * Makes this peer a hostile sender, for tests of a receiver's defences: what the metadata of
   * file `index` (1-based) announces as its size instead of the truth. The batch's `totalBytes`
   * stays the true sum, and the bytes sent are the file's own.
   */
  misannounce?: (index: number) => number | undefined;
}

export interface SpecReceiveOptions {
  serverUrl: string;
  code: string;
  /** Where the batch lands; created as needed, and nothing in it is overwritten. */
  dir: string;
  /** Which kind of receiver's rules to follow; a native one (the default) sends `received`. */
  profile?: Profile;
}

/**
 * Registers a code, takes the sender's seat, offers the instant a receiver joins and sends the
 * batch. Resolves once the batch is delivered by the rules of `profile`; rejects with a
 * SpecPeerError naming what went wrong and every step before it.
 */
export async function specSend(options: SpecSendOptions): Promise<SendResult> {
  return runSend(NATIVE, {
    serverUrl: options.serverUrl,
    files: await sourceFiles(options.files),
    profile: options.profile ?? 'native',
    onCode: options.onCode,
    peerJoinMs: options.peerJoinMs,
    misannounce: options.misannounce,
  });
}

/** Resolves `code`, joins as receiver, answers the offer and receives the batch into `dir`. */
export function specReceive(options: SpecReceiveOptions): Promise<ReceiveResult<SavedFile>> {
  return runReceive(NATIVE, {
    serverUrl: options.serverUrl,
    code: options.code,
    profile: options.profile ?? 'native',
    sink: new DiskSink(options.dir),
  });
}
