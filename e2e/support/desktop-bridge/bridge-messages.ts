import type { EventChannel, EventContract } from '../../../src-shared/ipc/contract';
import type { IpcResult } from '../../../src-shared/ipc/result';

/** A contract request, or the preload's report of a dropped file's path. */
export type BridgeRequest =
  | { kind: 'invoke'; id: number; channel: string; request: unknown }
  | { kind: 'dropped-path'; path: string };

export type BridgeReply =
  | { kind: 'reply'; id: number; result: IpcResult<unknown> }
  | { kind: 'event'; channel: EventChannel; payload: EventContract[EventChannel] };
