import type { ConnectTimeouts } from '../../src-shared/session/connect-peer';
import type { ReceiverTimer, SenderTimer } from '../../src-shared/protocol';
import type { EngineTimeouts } from './engine-options';

/** The engine's timeouts (which tests shorten) by the names the session core uses. */
export function connectTimeouts(timeouts: EngineTimeouts): ConnectTimeouts {
  return {
    offerAnswer: timeouts.offerAnswer,
    connect: timeouts.connect,
    attempt: timeouts.connectAttempt,
    channelGrace: timeouts.channelGrace,
    peerJoin: timeouts.peerJoin,
  };
}

export function senderTimers(timeouts: EngineTimeouts): Partial<Record<SenderTimer, number>> {
  return { ack: timeouts.ack, drain: timeouts.drainStall, delivery: timeouts.delivery };
}

export function receiverTimers(timeouts: EngineTimeouts): Partial<Record<ReceiverTimer, number>> {
  return {
    'first-data': timeouts.firstData,
    'no-progress': timeouts.noProgress,
    teardown: timeouts.teardownGrace,
  };
}
