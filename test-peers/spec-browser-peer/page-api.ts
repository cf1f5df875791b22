import type { Profile } from '../spec-peer/control-frames';
import type { ReceiveResult, SendResult } from '../spec-peer/run-peer';
import type { DigestedFile, PageFile } from './memory-files';

/** What the page script puts on `globalThis.specPeer`; every argument and result is plain data. */
export interface SpecBrowserPeerApi {
  /** Starts sending; resolves with the code once the page holds the sender's seat. */
  startSend(options: { files: PageFile[]; profile: Profile }): Promise<string>;
  /** The outcome of the send that startSend began. */
  finishSend(): Promise<SendResult>;
  receive(options: { code: string; profile: Profile }): Promise<ReceiveResult<DigestedFile>>;
}
