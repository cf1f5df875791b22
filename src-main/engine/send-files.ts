import { randomUUID } from 'node:crypto';
import type { SenderFile } from '../../src-shared/protocol';
import { DEFAULT_TIMEOUTS, type SendOptions } from './engine-options';
import { unlessCancelled } from './cancellable';
import { EngineError } from './engine-error';
import { establishLink } from './establish-link';
import { localVersion } from './local-version';
import { registerRoomCode } from './room-code';
import { setUpRoute } from './route-setup';
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
  const joining = SignalingClient.join(options.serverUrl, roomId, timeouts.roleWait);
  const [joined, code, route] = await Promise.allSettled([
    joining,
    registerRoomCode(options.serverUrl, roomId, timeouts.codeRequest),
    setUpRoute(options, timeouts, control.warn),
  ]);
  if (joined.status === 'rejected' || code.status === 'rejected' || route.status === 'rejected') {
    if (joined.status === 'fulfilled') joined.value.client.close();
    const failed = [code, joined, route].find((result) => result.status === 'rejected');
    throw failed?.reason;
  }
  const signaling = joined.value.client;
  if (cancelled.aborted) {
    signaling.close();
    throw new EngineError('ERR_CANCELLED');
  }
  if (joined.value.role !== 'sender') {
    signaling.close();
    throw EngineError.withDetail('ERR_SIGNALING_ERROR', 'the new room already had a sender');
  }
  control.update({ phase: 'waiting-for-peer', code: code.value, files: entries, totalBytes });

  const link = await establishLink({
    signaling,
    role: 'sender',
    ...route.value,
    timeouts,
    cancelled,
    onPeerJoined: () => control.update({ phase: 'connecting', code: code.value }),
  });
  await runSendSession({
    link,
    files,
    announced: announce(files, options),
    local: localVersion(options),
    remedySurface: options.remedySurface,
    timeouts,
    control,
  });
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
