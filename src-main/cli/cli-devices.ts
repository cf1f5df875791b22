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
import { DEVICES_LOOK_MS } from '../../src-shared/nearby/nearby-limits';
import type { PresenceEntry } from '../../src-shared/nearby/nearby-ports';
import { lookFor, openPairRooms, openRoster, type CommandServer } from './cli-nearby';
import { pairedDevices } from '../../src-shared/nearby/paired-devices';
import { rosterLabel } from './roster-names';

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
  command: { only?: string; remember?: string; name?: string },
): Pick<PeerOptions, 'identity' | 'expectPeer'> | DeviceProblem {
  const devices = installation.book.list();
  // `--name` names this device for this transfer; else the computer's name (docs/protocol.md,
  // "The name shown").
  const setting = {
    ...installation.setting,
    ownName: command.name ?? installation.setting.ownName,
  };
  const identity = { pemFile: installation.identity.pemFile, devices: setting };
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
    const server = await resolveServer(action.server);
    if (typeof server !== 'string') {
      printDevices(installation, undefined, io);
      io.error(`Not looked up who is online: ${server.problem}`);
      return EXIT.ok;
    }
    const pinned = action.server.kind === 'url' ? action.server.certificate : undefined;
    const seen = await lookAround(installation, action.name ?? installation.setting.ownName, {
      serverUrl: server,
      ...(pinned === undefined ? {} : { serverCertificate: pinned }),
    });
    printDevices(installation, seen, io);
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

/** Who `ferry devices` saw on the server: the paired devices online, and the roster if kept. */
interface SeenOnline {
  serverUrl: string;
  online: ReadonlySet<string>;
  roster: readonly PresenceEntry[] | undefined;
}

/**
 * Looks in the pair rooms of the paired devices for DEVICES_LOOK_MS at most (less once all are
 * online), and on the roster when the server keeps one; this program is listed there meanwhile.
 */
async function lookAround(
  installation: Installation,
  ownName: string,
  server: CommandServer,
): Promise<SeenOnline> {
  const paired = pairedDevices(installation.book.list());
  const cancelled = new AbortController();
  const rooms = paired.length === 0 ? undefined : openPairRooms(server, paired);
  try {
    const [seat] = await Promise.all([
      openRoster(server, ownName, cancelled.signal),
      rooms === undefined
        ? undefined
        : lookFor(
            () =>
              paired.every((device) => rooms.online().has(device.fingerprint)) ? true : undefined,
            (changed) => rooms.onChange(changed),
            DEVICES_LOOK_MS,
            cancelled.signal,
          ),
    ]);
    seat?.close();
    return {
      serverUrl: server.serverUrl,
      online: new Set(rooms?.online() ?? []),
      roster: seat?.devices(),
    };
  } finally {
    cancelled.abort();
    rooms?.close();
  }
}

function printDevices(installation: Installation, seen: SeenOnline | undefined, io: CliIo): void {
  const { identity, book, setting } = installation;
  io.out.write(`This device: ${setting.ownName} (${identity.fingerprint})\n`);
  const devices = book.list();
  if (devices.length === 0) {
    io.out.write('No remembered devices. Add one with --remember NAME on a verified transfer.\n');
  } else {
    io.out.write(
      seen === undefined
        ? 'Remembered devices:\n'
        : `Remembered devices, online as seen on ${seen.serverUrl}:\n`,
    );
    for (const device of devices) io.out.write(`  ${deviceLine(device, seen)}\n`);
  }
  if (seen?.roster === undefined) return;
  io.out.write('In this room:\n');
  if (seen.roster.length === 0) io.out.write('  nobody else\n');
  for (const entry of seen.roster) io.out.write(`  ${rosterLabel(entry)}\n`);
}

function deviceLine(device: RememberedDevice, seen: SeenOnline | undefined): string {
  const since = new Date(device.rememberedAt).toISOString().slice(0, 10);
  const line = `${device.name} — remembered ${since} (${device.fingerprint})`;
  if (seen === undefined) return line;
  // Only a device with a pair secret has a room to be seen in (docs/protocol.md, "Pair rooms").
  if (device.pairSecret === undefined) return `${line} — reached with a code only`;
  return `${line} — ${seen.online.has(device.fingerprint) ? 'online' : 'not online'}`;
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
  command: { only?: string; remember?: string; name?: string },
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

/** The name this device goes by in a transfer command: `--name`, else the installation's. */
export function ownNameOf(setup: TransferDevices): string {
  return setup.options.identity?.devices.ownName ?? defaultDeviceName();
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
  command: { only?: string; remember?: string; name?: string; server: ServerChoice },
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
