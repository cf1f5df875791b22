// The native transfer engine: plain Node, no Electron. The CLI and the desktop app are thin
// shells over these two calls and the Transfer they return. This index is the engine's whole
// public surface: ESLint keeps code outside src-main/engine from importing its other modules.
export { sendFiles, sendText } from './send-files';
export { receiveFiles } from './receive-files';
export type { Transfer } from './transfer';
export type { Route } from './peer-link';
export { processSctp } from './sctp-settings';
export { isFinal, type FinalState, type TransferState } from '../../src-shared/app/transfer-handle';
export {
  DEFAULT_TIMEOUTS,
  type EngineTimeouts,
  type OfferAnswer,
  type PeerOptions,
  type ReceiveOptions,
  type ReceiveTestSeam,
  type RoutePolicy,
  type SendOptions,
  type SendTextOptions,
  type SendTestSeam,
} from './engine-options';
export { SessionFailure } from '../../src-shared/session/session-failure';
export { listSendFiles, type SendFile } from './send-list';
export type { DownloadMark, MarkOrigin } from './download-mark';
export { openNativePresence, type NativePresenceOptions } from './native-presence';
export { nodeClock } from './node-clock';
export { openNativePairRooms } from './native-pair-rooms';
