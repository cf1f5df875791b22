// The native transfer engine: plain Node, no Electron. The CLI and the desktop app are thin
// shells over these two calls and the Transfer they return.
export { sendFiles } from './send-files';
export { receiveFiles } from './receive-files';
export { Transfer, type TransferEvents } from './transfer';
export type { Route } from './peer-link';
export { isFinal, type FinalState, type TransferState } from './transfer-state';
export {
  DEFAULT_TIMEOUTS,
  type EngineTimeouts,
  type PeerOptions,
  type ReceiveOptions,
  type RoutePolicy,
  type SendOptions,
  type SendTestSeam,
} from './engine-options';
