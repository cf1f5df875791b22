import { randomUUID } from 'node:crypto';
import type { SenderFile } from '../../src-shared/protocol';
import { DEFAULT_TIMEOUTS, type SendOptions } from './engine-options';
import { unlessCancelled } from './cancellable';
import { EngineError } from './engine-error';
import { connectLink } from './connect-link';
import { filteredSignaling } from './filtered-signaling';
import { localVersion } from './local-version';
import { registerRoomCode } from './room-code';
import { setUpRoute, type RouteSetup } from './route-setup';
import { runSendSession } from './send-session';
import { listSendFiles, type SendFile } from './send-list';
import { SignalingClient } from './signaling-client';
import { Transfer, type TransferControl } from './transfer';

/**
 * Sends files and folders: registers a code, waits for the receiver to join, connects and runs
 * the batch. The code appears in the `waiting-for-peer` state.
 */
export function sendFiles(options: SendOptions): Transfer {
  return new Transfer(
    { phase: 'registering', files: [], totalBytes: 0 },
    (control) => send(options, control),
    'ERR_SIGNALING_UNREACHABLE',
  );
}

async function send(options: SendOptions, control: TransferControl): Promise<void> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const { cancelled } = control;
  const files = await unlessCancelled(listSendFiles(options.paths), cancelled);
  const entries = files.map((file) => ({ name: file.name, size: file.size }));
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  control.update({ phase: 'registering', files: entries, totalBytes });

  // The room is joined before the code is shown, so a quick receiver cannot take the sender's role.
  const roomId = randomUUID();
  // Whatever fails first ends the other two requests at once, so nothing keeps the process up.
  const abandon = new AbortController();
  const stop = AbortSignal.any([abandon.signal, cancelled]);
  const registering = registerRoomCode(options.serverUrl, roomId, timeouts.codeRequest, stop);
  const joining = SignalingClient.join(options.serverUrl, roomId, timeouts.roleWait, stop);
  const routing = setUpRoute(options, timeouts, control.warn, stop);
  // Either may fail before registration settles; that failure is read below, not lost.
  joining.catch(() => undefined);
  routing.catch(() => undefined);
  let joined: Awaited<typeof joining>;
  let code: string;
  let route: RouteSetup;
  try {
    // Registration's own failure names the problem best, so it is awaited first.
    code = await unlessCancelled(registering, cancelled);
    [joined, route] = await unlessCancelled(Promise.all([joining, routing]), cancelled);
  } catch (error) {
    abandon.abort();
    joining.then(
      ({ client }) => client.close(),
      () => undefined,
    );
    throw error;
  }
  const signaling = joined.client;
  if (joined.role !== 'sender') {
    signaling.close();
    throw EngineError.withDetail('ERR_SIGNALING_ERROR', 'the new room already had a sender');
  }
  control.update({ phase: 'waiting-for-peer', code, files: entries, totalBytes });

  try {
    const link = await connectLink({
      signaling: filteredSignaling(signaling, options.signalFilter),
      ...route,
      timeouts,
      cancelled,
      onPeerJoined: () => control.update({ phase: 'connecting', code }),
      onRetry: (attempt) => control.update({ phase: 'connecting', code, retry: attempt - 1 }),
    });
    control.connected(link.route());
    await runSendSession({
      link,
      files,
      announced: announce(files, options),
      local: localVersion(options),
      remedySurface: options.remedySurface,
      timeouts,
      control,
      // The room is left only once the transfer has started on both ends: a receiver may still
      // be opening its own channel when ours opens (docs/protocol.md, "Connection lifecycle").
      started: () => signaling.close(),
    });
  } finally {
    signaling.close();
  }
}

function announce(files: readonly SendFile[], options: SendOptions): SenderFile[] {
  const seam = options.testSeam?.announce;
  return files.map((file, index) => {
    const told = seam?.({ name: file.name, size: file.size }, index) ?? {};
    return {
      id: randomUUID(),
      fileName: told.fileName ?? file.name,
      fileSize: told.fileSize ?? file.size,
    };
  });
}
