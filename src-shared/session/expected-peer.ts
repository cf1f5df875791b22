import type { ChannelPort } from './ports';
import { SessionFailure } from './session-failure';

/**
 * The device that must be on the other end of a connection (docs/protocol.md, "Remembered
 * devices"): a remembered one the person picked by name, or, after a lost link, the one the
 * batch started with.
 */
export interface ExpectedPeer {
  fingerprint: string;
  /** The remembered name; absent for the batch's own peer. */
  name?: string;
}

/**
 * Lets the channel be used only when its remote certificate is the expected one; otherwise it is
 * closed before a frame moves, and the person hears that someone may be intercepting.
 */
export function holdToExpectedPeer(channel: ChannelPort, expected: ExpectedPeer | undefined): void {
  if (expected === undefined) return;
  if (channel.fingerprints()?.remote === expected.fingerprint) return;
  channel.close(0);
  throw SessionFailure.withDetail(
    'ERR_UNEXPECTED_DEVICE',
    expected.name === undefined
      ? 'another device answered when the connection was restored'
      : `this is not “${expected.name}”`,
  );
}

/**
 * After a lost link, only the device the batch started with may take it up again; undefined when
 * the first connection named no remote certificate, and then nobody may (docs/protocol.md,
 * "Reconnect").
 */
export function batchPeerOf(channel: ChannelPort): ExpectedPeer | undefined {
  const remote = channel.fingerprints()?.remote;
  return remote === undefined ? undefined : { fingerprint: remote };
}
