export * from './limits';
export {
  defaultFailure,
  ERROR_CODES,
  ERROR_MESSAGES,
  isErrorCode,
  type ErrorCode,
  type Failure,
} from './error-codes';
export {
  binaryFrame,
  frameByteLength,
  textFrame,
  utf8ByteLength,
  type Frame,
  type Framing,
} from './frame';
export type {
  AckMessage,
  AliveMessage,
  Capability,
  CapsMessage,
  DigestMessage,
  ExtensionMessage,
  ExtensionType,
  ListedFile,
  ListMessage,
  ReceiverWireMessage,
  ResumeMessage,
  SenderWireMessage,
  StartMessage,
  VerifiedMessage,
  ControlMessage,
  ControlType,
  EndMessage,
  IncomingMetadata,
  IncompatibleMessage,
  MetadataMessage,
  ReceivedMessage,
  ReceiverMessage,
  SenderMessage,
  VersionAdvert,
} from './messages';
export { encodeControlJson, encodeMessage, fitIncompatible } from './encode';
export type { ControlReading, IgnoredWhy } from './decode-control';
export {
  classifyFrameFromReceiver,
  classifyFrameFromSender,
  type FromReceiver,
  type FromSender,
  type ProtocolError,
  type Surface,
} from './frame-classification';
export { displayReason } from './display-reason';
export {
  advertisedRange,
  localPeerVersion,
  negotiateVersion,
  type Negotiation,
  type PeerVersion,
  type VersionRange,
} from './version-negotiation';
export {
  CLI_UPDATE_COMMAND,
  versionReasonForPeer,
  versionRemedy,
  type RemedySurface,
} from './version-remedy';
export { explainIncompatible } from './peer-incompatible';
export type { TimerAction } from './timer-actions';
export {
  createSender,
  type SenderAction,
  type SenderConfig,
  type SenderEvent,
  type SenderFile,
  type SenderMachine,
  type SenderState,
  type SenderTimer,
} from './sender';
export {
  createReceiver,
  type Offer,
  type ReceiverAction,
  type ReceiverConfig,
  type ReceiverEvent,
  type ReceiverMachine,
  type ReceiverState,
  type ReceiverTimer,
} from './receiver';
