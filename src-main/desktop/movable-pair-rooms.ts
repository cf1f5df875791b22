import type { PairedDevice, PairRooms } from '../../src-shared/nearby/nearby-ports';

type InviteListener = Parameters<PairRooms['onInvite']>[0];
type ChangeListener = Parameters<PairRooms['onChange']>[0];

/**
 * The desktop app's pair rooms (docs/architecture.md, "Nearby devices", the desktop app): they
 * are on the server chosen in Settings, which the person may change while the app runs. The
 * nearby layer holds this one object for the app's life; `move` leaves every room on the old
 * server and waits in the same rooms on the new one.
 */
export class MovablePairRooms implements PairRooms {
  readonly #open: (devices: readonly PairedDevice[]) => PairRooms;
  readonly #changeListeners = new Set<ChangeListener>();
  readonly #inviteListeners = new Set<InviteListener>();
  #devices: readonly PairedDevice[] = [];
  #rooms: PairRooms;
  #detach: () => void;

  /** `open`: the pair rooms of `devices` on the server as it is chosen now. */
  constructor(open: (devices: readonly PairedDevice[]) => PairRooms) {
    this.#open = open;
    this.#rooms = open([]);
    this.#detach = this.#follow(this.#rooms);
  }

  online(): ReadonlySet<string> {
    return this.#rooms.online();
  }

  onChange(listener: ChangeListener): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  onInvite(listener: InviteListener): () => void {
    this.#inviteListeners.add(listener);
    return () => this.#inviteListeners.delete(listener);
  }

  invite(fingerprint: string, roomId: string): Promise<void> {
    return this.#rooms.invite(fingerprint, roomId);
  }

  update(devices: readonly PairedDevice[]): void {
    this.#devices = devices;
    this.#rooms.update(devices);
  }

  /** The server chosen in Settings changed: the rooms are left there and joined on the new one. */
  move(): void {
    this.#detach();
    this.#rooms.close();
    this.#rooms = this.#open(this.#devices);
    this.#detach = this.#follow(this.#rooms);
    this.#changed(this.#rooms.online());
  }

  close(): void {
    this.#detach();
    this.#rooms.close();
  }

  #follow(rooms: PairRooms): () => void {
    const stops = [
      rooms.onChange((online) => this.#changed(online)),
      rooms.onInvite((invite) => {
        for (const listener of [...this.#inviteListeners]) listener(invite);
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }

  #changed(online: ReadonlySet<string>): void {
    for (const listener of [...this.#changeListeners]) listener(online);
  }
}
