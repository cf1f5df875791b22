// The `message` of the `error` event (event socket) or message (WebSocket) for each bad input.
export const SIGNALING_ERROR = {
  invalidRoomId: 'Invalid room ID',
  invalidMessage: 'Invalid message',
  invalidJson: 'Invalid JSON',
  messageTooLarge: 'Message too large',
  unknownType: 'Unknown message type',
  notInRoom: 'Not in a room',
  roomMismatch: 'Not in that room',
  unknownTarget: 'Target is not in your room',
  tooManyConnections: 'Too many connections',
  /** Why a socket handshake from an origin outside the allow-list is refused (HTTP 403). */
  originNotAllowed: 'Origin not allowed',
} as const;
