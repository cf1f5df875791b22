/**
 * Stable codes for the LAN-room failures a person can see, worded like the protocol's own
 * messages: one lowercase sentence without a final period.
 */
export const LAN_ERROR_MESSAGES = {
  ERR_NO_LAN_ADDRESS: 'this device has no local network address to host a room on',
  ERR_NO_FREE_PORT: 'no free port to host a room on',
  ERR_LAN_DISCOVERY_UNAVAILABLE: 'rooms cannot be announced or found on this local network',
} as const satisfies Record<`ERR_${string}`, string>;

export type LanErrorCode = keyof typeof LAN_ERROR_MESSAGES;

export class LanError extends Error {
  override readonly name = 'LanError';

  constructor(
    readonly code: LanErrorCode,
    detail?: string,
    options?: ErrorOptions,
  ) {
    super(detail ? `${LAN_ERROR_MESSAGES[code]} (${detail})` : LAN_ERROR_MESSAGES[code], options);
  }
}
