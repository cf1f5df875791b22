import { randomBytes } from 'node:crypto';
import { normalizeCode } from '../../src-shared/codes';
import { systemOfPlatform } from '../../src-shared/names/receiving-system';
import { offeredCapabilities } from '../../src-shared/session/capabilities';
import { runReceiveFlow } from '../../src-shared/session/receive-flow';
import { runReceiveSession, type Acceptance } from '../../src-shared/session/receive-session';
import { prepareDestination } from './destination-folder';
import { downloadMarkFor, markReceived } from './download-mark';
import { DEFAULT_TIMEOUTS, type ReceiveOptions } from './engine-options';
import { freeSpaceIn, measuringFreeSpace } from './free-space';
import { connectTimeouts, receiverTimers } from './engine-timeouts';
import { localVersion } from './local-version';
import { laneCount, nativeRoute } from './native-route';
import { nodeSha256 } from './node-sha256';
import { partFileTarget } from './part-file-target';
import { joinSignalingRoom } from './signaling-seat';
import { nativeSignalingRequests } from './signaling-requests';
import { TransferHandle } from '../../src-shared/app/transfer-handle';
import type { Route } from './peer-link';
import type { Transfer, TransferControl } from './transfer';

/**
 * Receives a batch into `destination`: the session core's receive flow
 * (src-shared/session/receive-flow.ts) over the native adapters, then the byte-count report
 * unless opted out.
 */
export function receiveFiles(options: ReceiveOptions): Transfer {
  const code = normalizeCode(options.code);
  return new TransferHandle<Route>(
    { phase: 'connecting', direction: 'receive', code, stage: 'finding' },
    (control) => receive(code, options, control),
    'ERR_SIGNALING_UNREACHABLE',
  );
}

async function receive(
  code: string,
  options: ReceiveOptions,
  control: TransferControl,
): Promise<void> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const { cancelled } = control;
  const destination = await prepareDestination(options.destination);
  const markSaved = markReceived(options.downloadMark ?? downloadMarkFor(), control.warn);
  const requests = nativeSignalingRequests(options.serverUrl, timeouts, options.serverCertificate);
  const route = nativeRoute(options, requests, control);
  await runReceiveFlow(
    {
      clock: route.clock,
      timeouts: connectTimeouts(timeouts),
      resolveCode: (normalized, stop) => requests.resolveCode(normalized, stop),
      joinRoom: (roomId, stop) => joinSignalingRoom(options, roomId, timeouts.roleWait, stop),
      chooseRoute: route.choose,
      runSession: (channel, started, accepted, kept) => {
        route.opened();
        const lanes = route.lanes();
        return runReceiveSession({
          channel,
          ...(lanes === undefined ? {} : { lanes }),
          clock: route.clock,
          surface: 'native',
          caps: offeredCapabilities(options.extensions, { lanes: laneCount(options) > 1 }).filter(
            (cap) => options.testSeam?.withoutCaps?.includes(cap) !== true,
          ),
          randomBytes,
          ...(options.linkSecret === undefined ? {} : { linkSecret: options.linkSecret }),
          ...(options.identity === undefined ? {} : { devices: options.identity.devices }),
          incrementalSha256: nodeSha256,
          local: localVersion(options),
          remedySurface: options.remedySurface,
          system: systemOfPlatform(process.platform),
          // After a lost link the batch goes on where it was accepted, without asking again.
          acceptance: measuringFreeSpace(
            accepted === undefined
              ? acceptance(options, destination, markSaved)
              : { ask: false, target: accepted },
            options.testSeam?.freeSpace ?? freeSpaceIn,
          ),
          ...(kept === undefined ? {} : { keptBytes: kept.bytesDone }),
          publish: control.update,
          cancelled,
          started,
          timers: receiverTimers(timeouts),
          flushMs: timeouts.abortFlush,
          closeGraceMs: timeouts.abortFlush,
        });
      },
      reportBytes: (bytes) => requests.reportBytes(bytes),
    },
    {
      code,
      publish: control.update,
      cancelled,
      report: options.reportBytes !== false,
      ...(options.expectPeer === undefined ? {} : { expectPeer: options.expectPeer }),
      ...(options.roomId === undefined ? {} : { roomId: options.roomId }),
    },
  );
}

/** Into `destination` at once, or as the owner answers: yes, no, or yes into another folder. */
function acceptance(
  options: ReceiveOptions,
  destination: string,
  markSaved: (savedPath: string, name: string) => Promise<void>,
): Acceptance {
  const { onOffer } = options;
  if (onOffer === undefined) return { ask: false, target: partFileTarget(destination, markSaved) };
  const { acceptsAtOnce } = options;
  return {
    ask: true,
    destination: async () => destination,
    ...(acceptsAtOnce === undefined
      ? {}
      : {
          withoutAsking: (offer) =>
            acceptsAtOnce(offer) ? partFileTarget(destination, markSaved) : undefined,
        }),
    async choose(offer) {
      const answer = await onOffer(offer).catch(() => false as const);
      if (answer === false) return undefined;
      if (answer === true) return partFileTarget(destination, markSaved);
      return partFileTarget(await prepareDestination(answer.destination), markSaved);
    },
  };
}
