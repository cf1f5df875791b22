import { normalizeCode } from '../../src-shared/codes';
import { DEFAULT_TIMEOUTS, type ReceiveOptions } from './engine-options';
import { reportReceivedBytes } from './byte-count-report';
import { unlessCancelled } from './cancellable';
import { EngineError } from './engine-error';
import { prepareDestination } from './destination-folder';
import { connectLink } from './connect-link';
import { filteredSignaling } from './filtered-signaling';
import { localVersion } from './local-version';
import { runReceiveSession } from './receive-session';
import { resolveRoomCode } from './room-code';
import { setUpRoute, type RouteSetup } from './route-setup';
import { SignalingClient } from './signaling-client';
import { Transfer, type TransferControl } from './transfer';

/**
 * Receives a batch into `destination`: resolves the code, joins the sender's room, answers its
 * offer and runs the batch, then reports the byte count unless opted out.
 */
export function receiveFiles(options: ReceiveOptions): Transfer {
  const code = normalizeCode(options.code);
  return new Transfer(
    { phase: 'connecting', code },
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
  if (code === '') throw new EngineError('ERR_CODE_NOT_FOUND');
  const destination = await prepareDestination(options.destination);
  const abandon = new AbortController();
  const stop = AbortSignal.any([abandon.signal, cancelled]);
  const resolving = resolveRoomCode(options.serverUrl, code, timeouts.codeRequest, stop);
  const routing = setUpRoute(options, timeouts, control.warn, stop);
  routing.catch(() => undefined);
  let roomId: string;
  let route: RouteSetup;
  try {
    roomId = await unlessCancelled(resolving, cancelled);
    route = await unlessCancelled(routing, cancelled);
  } catch (error) {
    abandon.abort();
    throw error;
  }
  const { client: signaling, role } = await unlessCancelled(
    SignalingClient.join(options.serverUrl, roomId, timeouts.roleWait, cancelled),
    cancelled,
    ({ client }) => client.close(),
  );
  if (role !== 'receiver') {
    // An empty room made this peer its first member: the sender is gone.
    signaling.close();
    throw EngineError.withDetail('ERR_PEER_CLOSED', 'the sending device is no longer waiting');
  }
  let report: Promise<void> = Promise.resolve();
  try {
    await receiveOver(signaling, route, destination, options, control, (bytes) => {
      if (options.reportBytes === false) return;
      report = reportReceivedBytes(options.serverUrl, bytes, timeouts.report).catch(
        () => undefined,
      );
    });
  } finally {
    signaling.close();
  }
  await report;
}

async function receiveOver(
  signaling: SignalingClient,
  route: RouteSetup,
  destination: string,
  options: ReceiveOptions,
  control: TransferControl,
  onComplete: (bytes: number) => void,
): Promise<void> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const code = normalizeCode(options.code);
  const link = await connectLink({
    signaling: filteredSignaling(signaling, options.signalFilter),
    ...route,
    timeouts,
    cancelled: control.cancelled,
    onRetry: (attempt) => control.update({ phase: 'connecting', code, retry: attempt - 1 }),
  });
  control.connected(link.route());
  await runReceiveSession({
    link,
    destination,
    local: localVersion(options),
    remedySurface: options.remedySurface,
    timeouts,
    control,
    onOffer: options.onOffer,
    onComplete,
    // Leaving the room waits until the first ack (or incompatible) is out: see send-files.ts.
    started: () => signaling.close(),
  });
}
