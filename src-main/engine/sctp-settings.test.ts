import nodeDataChannel, { type SctpSettings } from 'node-datachannel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignalingRequests } from '../../src-shared/http/signaling-requests';
import { LANE_SCTP_SETTINGS, NATIVE_SCTP_SETTINGS } from '../../src-shared/session/session-limits';
import { nativeRoute } from './native-route';
import { nodeClock } from './node-clock';
import { processSctp, sctpSwitch } from './sctp-settings';

afterEach(() => vi.restoreAllMocks());

/** A switch over a stack that records every set of settings it was handed. */
function recordingSwitch() {
  const applied: SctpSettings[] = [];
  return { sctp: sctpSwitch((settings) => applied.push(settings)), applied };
}

describe("the process's SCTP settings", () => {
  it("are the native peers' own, set by the first call and by no later one", () => {
    const { sctp, applied } = recordingSwitch();
    sctp.useNative();
    sctp.useNative();
    sctp.useNative({ delayedSackTime: 20 });

    expect(applied).toEqual([NATIVE_SCTP_SETTINGS]);
  });

  it("are whatever the first caller chose, so a bench's settings outlive the engine's start", () => {
    const { sctp, applied } = recordingSwitch();
    sctp.useNative({ delayedSackTime: 20 });
    sctp.useNative();
    sctp.openingLanes()();

    expect(applied).toEqual([{ delayedSackTime: 20 }, LANE_SCTP_SETTINGS, { delayedSackTime: 20 }]);
  });

  it("switch to the lanes' while any bond makes lanes, and back once the last is settled", () => {
    const { sctp, applied } = recordingSwitch();
    const first = sctp.openingLanes();
    const second = sctp.openingLanes();
    first();
    first();
    expect(applied).toEqual([NATIVE_SCTP_SETTINGS, LANE_SCTP_SETTINGS]);

    second();
    expect(applied).toEqual([NATIVE_SCTP_SETTINGS, LANE_SCTP_SETTINGS, NATIVE_SCTP_SETTINGS]);
  });

  it("are put in place by the engine's entry, before it makes any connection", () => {
    const set = vi.spyOn(nodeDataChannel, 'setSctpSettings');
    const unreachable = 'http://127.0.0.1:9';
    const requests = new SignalingRequests(unreachable, {
      fetch: () => Promise.reject(new Error('no server in this test')),
      clock: nodeClock,
    });
    const control = {
      update: () => undefined,
      warn: () => undefined,
      connected: () => undefined,
      cancelled: new AbortController().signal,
    };
    const options = { serverUrl: unreachable, remedySurface: 'cli' as const };

    nativeRoute(options, requests, control);
    expect(set.mock.calls).toEqual([[NATIVE_SCTP_SETTINGS]]);
    // A second transfer of the process changes nothing.
    nativeRoute(options, requests, control);
    processSctp.useNative();
    expect(set).toHaveBeenCalledTimes(1);
  });
});
