import type { EventChannel, EventContract } from '../../../src-shared/ipc/contract';
import type { IpcResult } from '../../../src-shared/ipc/result';

export interface BridgeRequest {
  id: number;
  channel: string;
  request: unknown;
}

export type BridgeReply =
  | { kind: 'reply'; id: number; result: IpcResult<unknown> }
  | { kind: 'event'; channel: EventChannel; payload: EventContract[EventChannel] };
