const MAX_MESSAGE_SIZE_LINE = /^a=max-message-size:/;
const SCTP_PORT_LINE = /^a=sctp-port:/;

/**
 * The SDP with `a=max-message-size:<bytes>` in every data-channel section (the ones with an SCTP
 * port), whatever value the local stack wrote, if any. Browsers read a missing attribute as RFC
 * 8841's 65536 and would refuse larger chunks.
 */
export function withMaxMessageSize(sdp: string, bytes: number): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const attribute = `a=max-message-size:${bytes}`;
  return sdp
    .split(eol)
    .filter((line) => !MAX_MESSAGE_SIZE_LINE.test(line))
    .flatMap((line) => (SCTP_PORT_LINE.test(line) ? [line, attribute] : [line]))
    .join(eol);
}
