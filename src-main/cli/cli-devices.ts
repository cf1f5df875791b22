import {
  DeviceListError,
  findByName,
  type RememberedDevice,
} from '../../src-shared/devices/remembered-devices';
import type { PeerSummary } from '../../src-shared/transfer/transfer-view';
import { ferryDataFolder } from '../devices/data-folder';
import { defaultDeviceName, openInstallation, type Installation } from '../devices/installation';
import type { PeerOptions } from '../engine';
import type { CliIo } from './cli-io';
import { EXIT, type ExitCode } from './exit-codes';
import type { DevicesAction, ServerChoice } from './parse-args';
import { resolveServer } from './resolve-server';

export async function openCliInstallation(env: NodeJS.ProcessEnv): Promise<Installation> {
  return openInstallation(ferryDataFolder(env), defaultDeviceName());
}

/** A problem with the devices a command names, found before anything connects. */
export interface DeviceProblem {
  problem: string;
  exit: ExitCode;
}

/**
 * The engine options a transfer command adds for its devices: the installation's identity, and
 * with `--to`/`--from` the one device allowed on the other end. `--remember` with a name another
 * device already has is refused now, rather than after the transfer.
 */
export function devicePeerOptions(
  installation: Installation,
  command: { only?: string; remember?: string },
): Pick<PeerOptions, 'identity' | 'expectPeer'> | DeviceProblem {
  const devices = installation.book.list();
  const identity = { pemFile: installation.identity.pemFile, devices: installation.setting };
  if (command.remember !== undefined) {
    const holder = findByName(devices, command.remember);
    if (holder !== undefined) {
      return {
        problem: `a device is remembered as “${holder.name}” already; pick another name, or "ferry devices forget ${holder.name}"`,
        exit: EXIT.usage,
      };
    }
  }
  if (command.only === undefined) return { identity };
  const expected = findByName(devices, command.only);
  if (expected === undefined) {
    return {
      problem: `no device is remembered as “${command.only}”; "ferry devices" lists them`,
      exit: EXIT.usage,
    };
  }
  return { identity, expectPeer: { fingerprint: expected.fingerprint, name: expected.name } };
}

/**
 * `--remember NAME` once the transfer is done: only a device this transfer verified (the words
 * confirmed, the secret link, or one remembered already) is remembered. The transfer itself has
 * succeeded either way, so a refusal is a line on standard error, not a failure.
 */
export async function rememberPeer(
  installation: Installation,
  name: string,
  peer: PeerSummary | undefined,
  io: CliIo,
): Promise<void> {
  if (peer === undefined || peer.check.kind === 'unverified') {
    io.error(`Not remembered: the other device was not verified, so it cannot be “${name}”.`);
    return;
  }
  try {
    await installation.book.remember(peer.fingerprint, name, peer.pairSecret);
    io.out.write(`Remembered the other device as “${name}”.\n`);
  } catch (error) {
    const reason = error instanceof DeviceListError ? error.message : String(error);
    io.error(`Not remembered: ${reason}.`);
  }
}

/** `ferry devices …`: lists, renames or forgets remembered devices. */
export async function runDevices(
  action: DevicesAction,
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  let installation: Installation;
  try {
    installation = await openCliInstallation(env);
  } catch (error) {
    io.error(`Error: could not open ${ferryDataFolder(env)}: ${String(error)}`);
    return EXIT.failed;
  }
  const { book } = installation;
  if (action.kind === 'list') {
    printDevices(installation, io);
    return EXIT.ok;
  }
  const device = findByName(book.list(), action.name);
  if (device === undefined) {
    io.error(`Error: no device is remembered as “${action.name}”; "ferry devices" lists them.`);
    return EXIT.usage;
  }
  try {
    if (action.kind === 'forget') {
      await book.forget(device.fingerprint);
      io.out.write(`Forgot “${device.name}”.\n`);
    } else {
      await book.rename(device.fingerprint, action.newName);
      io.out.write(`Renamed “${device.name}” to “${action.newName}”.\n`);
    }
    return EXIT.ok;
  } catch (error) {
    io.error(`Error: ${error instanceof DeviceListError ? error.message : String(error)}.`);
    return EXIT.usage;
  }
}

function printDevices(installation: Installation, io: CliIo): void {
  const { identity, book, setting } = installation;
  io.out.write(`This device: ${setting.ownName} (${identity.fingerprint})\n`);
  const devices = book.list();
  if (devices.length === 0) {
    io.out.write('No remembered devices. Add one with --remember NAME on a verified transfer.\n');
    return;
  }
  io.out.write('Remembered devices:\n');
  for (const device of devices) io.out.write(`  ${deviceLine(device)}\n`);
}

function deviceLine(device: RememberedDevice): string {
  const since = new Date(device.rememberedAt).toISOString().slice(0, 10);
  return `${device.name} — remembered ${since} (${device.fingerprint})`;
}

/** A transfer command's installation, when it could be opened, and what it adds to the engine. */
export interface TransferDevices {
  installation: Installation | undefined;
  options: Pick<PeerOptions, 'identity' | 'expectPeer'>;
}

/**
 * Opens the installation for a transfer. Without one the transfer still runs, on a fresh
 * certificate, unless the command names devices (`--remember`, `--to`, `--from`).
 */
export async function transferDevices(
  command: { only?: string; remember?: string },
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<TransferDevices | DeviceProblem> {
  let installation: Installation;
  try {
    installation = await openCliInstallation(env);
  } catch (error) {
    const problem = `could not keep this device's identity in ${ferryDataFolder(env)} (${String(error)})`;
    if (command.only !== undefined || command.remember !== undefined) {
      return { problem, exit: EXIT.failed };
    }
    io.error(`Warning: ${problem}; other devices will not recognise this one.`);
    return { installation: undefined, options: {} };
  }
  const options = devicePeerOptions(installation, command);
  return 'problem' in options ? options : { installation, options };
}

/** What both transfer commands set up before anything connects. */
export interface TransferSetup extends TransferDevices {
  serverUrl: string;
  /** The fingerprint the server must present (`--server-certificate`). */
  serverCertificate?: string;
}

/**
 * The installation and the signaling server of a transfer command, or the exit status after
 * saying on standard error why it cannot start.
 */
export async function setUpTransfer(
  command: { only?: string; remember?: string; server: ServerChoice },
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<TransferSetup | ExitCode> {
  const devices = await transferDevices(command, io, env);
  if ('problem' in devices) {
    io.error(`Error: ${devices.problem}`);
    return devices.exit;
  }
  const server = await resolveServer(command.server);
  if (typeof server !== 'string') {
    io.error(`Error: ${server.problem}`);
    return server.exit;
  }
  const pinned = command.server.kind === 'url' ? command.server.certificate : undefined;
  return {
    ...devices,
    serverUrl: server,
    ...(pinned === undefined ? {} : { serverCertificate: pinned }),
  };
}
