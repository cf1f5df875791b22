import { setTimeout as pause } from 'node:timers/promises';
import type {
  PairedDevice,
  PresenceEntry,
  PresenceSeat,
} from '../../src-shared/nearby/nearby-ports';
import { LISTEN_DEVICES_REREAD_MS, ROSTER_REJOIN_MS } from '../../src-shared/nearby/nearby-limits';
import { ferryDataFolder } from '../devices/data-folder';
import { openDeviceBook } from '../devices/device-book';
import type { CliIo } from './cli-io';
import {
  devicePeerOptions,
  openCliInstallation,
  ownNameOf,
  setUpTransfer,
  type TransferSetup,
} from './cli-devices';
import { pairedDevices } from '../../src-shared/nearby/paired-devices';
import { openPairRooms, openRoster } from './cli-nearby';
import { EXIT, type ExitCode } from './exit-codes';
import type { Command } from './parse-args';
import { rosterLabel } from './roster-names';
import { receiveOnce, type ReceiveFrom } from './run-receive';

type ListenCommand = Extract<Command, { kind: 'listen' }>;

/**
 * `ferry receive --listen` (and `--lan`/`--server` with no code, `once`): waits in the pair rooms
 * of the paired devices and on the server's roster, and runs a normal receive for each
 * invitation, one at a time (docs/architecture.md, "Nearby devices on the command line").
 */
export async function runListen(
  command: ListenCommand,
  io: CliIo,
  ver: string,
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  const setup = await setUpTransfer(command, io, env);
  if (typeof setup === 'number') return setup;
  const stopped = new AbortController();
  const stopInterrupt = io.onInterrupt(() => stopped.abort());
  try {
    return await new Listener(command, io, ver, env, setup, stopped.signal).run();
  } finally {
    stopInterrupt();
  }
}

class Listener {
  /** The transfer under way: one at a time. */
  private running: Promise<void> | undefined;
  /** Set by the transfer that ends the listening: the one of `once`, or one cut by Ctrl-C. */
  private exit: ExitCode | undefined;
  private readonly done = new AbortController();
  private online: ReadonlySet<string> = new Set();
  private roster: readonly PresenceEntry[] = [];
  private paired: readonly PairedDevice[];
  private readonly name: string;

  constructor(
    private readonly command: ListenCommand,
    private readonly io: CliIo,
    private readonly ver: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly setup: TransferSetup,
    private readonly stopped: AbortSignal,
  ) {
    this.paired = pairedDevices(setup.installation?.book.list() ?? []);
    this.name = ownNameOf(setup);
    stopped.addEventListener('abort', () => this.done.abort(), { once: true });
  }

  async run(): Promise<ExitCode> {
    const { io } = this;
    const rooms = openPairRooms(this.setup, this.paired);
    rooms.onChange((online) => this.pairedChanged(online));
    rooms.onInvite(({ device, roomId }) =>
      this.invited(device.name, roomId, { fingerprint: device.fingerprint, name: device.name }),
    );
    const reread = setInterval(() => void this.reread(rooms), LISTEN_DEVICES_REREAD_MS);
    try {
      const seat = await openRoster(this.setup, this.name, this.done.signal);
      const count = this.paired.length;
      io.out.write(
        `Waiting for devices as “${this.name}” on ${this.setup.serverUrl}: ${
          count === 1 ? '1 remembered device' : `${count} remembered devices`
        } can reach this one${seat === undefined ? '' : ', and anyone in the room'}. Ctrl-C stops.\n`,
      );
      if (seat !== undefined) void this.keepRosterSeat(seat);
      await new Promise<void>((resolve) => {
        if (this.done.signal.aborted) resolve();
        this.done.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      // Ctrl-C cancels a transfer under way too; its end is still printed.
      await this.running;
    } finally {
      clearInterval(reread);
      rooms.close();
    }
    // Stopping a listener that waits is how it ends; `once` stopped before a transfer is not.
    return this.exit ?? (this.command.once ? EXIT.interrupted : EXIT.ok);
  }

  /** Holds a seat on the roster while listening, joining again after a lost one. */
  private async keepRosterSeat(first: PresenceSeat): Promise<void> {
    let seat: PresenceSeat | undefined = first;
    while (!this.done.signal.aborted) {
      if (seat !== undefined) {
        this.rosterChanged(seat.devices());
        seat.onChange((devices) => this.rosterChanged(devices));
        seat.onInvite(({ from, roomId }) => this.invited(rosterLabel(from), roomId, undefined));
        const held = seat;
        const stop = (): void => held.close();
        this.done.signal.addEventListener('abort', stop, { once: true });
        await seat.ended;
        this.done.signal.removeEventListener('abort', stop);
        if (this.done.signal.aborted) return;
        this.io.out.write('Lost the seat on the room’s roster; joining it again shortly.\n');
        this.rosterChanged([]);
      }
      await pause(ROSTER_REJOIN_MS, undefined, { signal: this.done.signal }).catch(() => undefined);
      if (this.done.signal.aborted) return;
      seat = await openRoster(this.setup, this.name, this.done.signal);
    }
  }

  private pairedChanged(online: ReadonlySet<string>): void {
    for (const device of this.paired) {
      const was = this.online.has(device.fingerprint);
      const is = online.has(device.fingerprint);
      if (was !== is) this.io.out.write(`${is ? 'Online' : 'Offline'}: “${device.name}”\n`);
    }
    this.online = new Set(online);
  }

  private rosterChanged(devices: readonly PresenceEntry[]): void {
    const before = new Set(this.roster.map((device) => device.id));
    const now = new Set(devices.map((device) => device.id));
    for (const device of devices) {
      if (!before.has(device.id)) this.io.out.write(`In the room: ${rosterLabel(device)}\n`);
    }
    for (const device of this.roster) {
      if (!now.has(device.id)) this.io.out.write(`Left the room: ${rosterLabel(device)}\n`);
    }
    this.roster = devices;
  }

  /** The remembered devices as they are now: another `ferry` may have changed them. */
  private async reread(rooms: { update(devices: readonly PairedDevice[]): void }): Promise<void> {
    const book = await openDeviceBook(ferryDataFolder(this.env)).catch(() => undefined);
    if (book === undefined || this.done.signal.aborted) return;
    this.paired = pairedDevices(book.list());
    rooms.update(this.paired);
  }

  /**
   * An invitation: a normal receive in its room, pinned to the remembered device a pair room's
   * invitation came from; a roster's is checked by the words. One transfer at a time.
   */
  private invited(
    sender: string,
    roomId: string,
    expectPeer: { fingerprint: string; name: string } | undefined,
  ): void {
    if (this.done.signal.aborted) return;
    if (this.running !== undefined) {
      this.io.out.write(
        `Ignored an invitation from ${quoted(sender, expectPeer)}: busy with a transfer.\n`,
      );
      return;
    }
    this.running = this.receive({
      roomId,
      sender,
      ...(expectPeer === undefined ? {} : { expectPeer }),
    }).finally(() => (this.running = undefined));
  }

  private async receive(from: Extract<ReceiveFrom, { roomId: string }>): Promise<void> {
    const { io } = this;
    io.out.write(`Invitation from ${quoted(from.sender, from.expectPeer)}.\n`);
    try {
      // Opened afresh: a device remembered meanwhile is recognised by this transfer.
      const installation = await openCliInstallation(this.env).catch(() => undefined);
      if (from.expectPeer !== undefined) {
        const still = installation?.book.find(from.expectPeer.fingerprint);
        // Forgotten since its room was joined: its invitation is refused, and the room left.
        if (still === undefined) {
          io.out.write(`Refused: “${from.sender}” is no longer remembered.\n`);
          return;
        }
      }
      const options =
        installation === undefined ? undefined : devicePeerOptions(installation, this.command);
      const setup: TransferSetup =
        options === undefined || 'problem' in options
          ? this.setup
          : { ...this.setup, installation, options };
      const exit = await receiveOnce(this.command, from, setup, io, this.ver);
      if (this.command.once || this.stopped.aborted) {
        this.exit = exit;
        this.done.abort();
        return;
      }
      io.out.write('Waiting for devices again.\n');
    } catch (error) {
      io.error(`Error: ${String(error)}`);
    }
  }
}

function quoted(sender: string, expectPeer: object | undefined): string {
  return expectPeer === undefined ? sender : `“${sender}”`;
}
