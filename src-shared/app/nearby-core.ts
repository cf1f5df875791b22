import type { IpcError } from '../ipc/result';
import { cleanDeviceName } from '../devices/device-name';
import type {
  DeviceKind,
  OpenPresence,
  PairedDevice,
  PairRooms,
  PresenceEntry,
  PresenceIntro,
  PresenceSeat,
  Reach,
} from '../nearby/nearby-ports';
import { NEARBY_GONE_SHOWN_MS, NEARBY_PRESENCE_RETRY_MS } from '../nearby/nearby-limits';
import type { ExpectedPeer } from '../session/expected-peer';
import type { Clock, ClockTimer } from '../session/ports';
import { appError } from './app-errors';

// The nearby layer of the application core (docs/architecture.md, "Nearby devices"): the one
// list of devices a person can send to without a code, built from the presence roster and the
// pair rooms, for the desktop app's main process and the page alike.

/** What a surface supplies: each port is absent where that surface or its server has none. */
export interface NearbyPorts {
  /** The roster of the server this program talks to (docs/protocol.md, "Presence"). */
  openPresence?: OpenPresence;
  /** The pair rooms of the remembered devices (docs/protocol.md, "Pair rooms"); closed with the layer. */
  pairRooms?: PairRooms;
  /** How this program shows itself on the roster. */
  intro: PresenceIntro;
  clock: Clock;
  /** A transfer is running or being set up: an invitation then is ignored. */
  busy(): boolean;
}

/** One device on the list, as every surface shows it. */
export interface NearbyDeviceView {
  /** Stable while the device stays: what `reachFor` takes. */
  key: string;
  name: string;
  /** A remembered device is shown as one, whatever program it is. */
  kind: DeviceKind | 'remembered';
  /** The roster's short random id, which tells two devices of the same name apart. */
  shortId?: string;
  /** How a send reaches it: an invitation through the roster, or through its pair room. */
  via: 'room' | 'pair';
  /** False once it went away: it stays greyed out for NEARBY_GONE_SHOWN_MS. */
  online: boolean;
}

export interface NearbyView {
  devices: NearbyDeviceView[];
  /** This program holds a seat on a roster (its server keeps one). */
  inRoom: boolean;
}

/** An invitation to receive: join `roomId`, and take only `expectPeer` when one is named. */
export interface NearbyInvite {
  roomId: string;
  /** The inviting device's name, as this side shows it. */
  from: string;
  expectPeer?: ExpectedPeer;
}

export interface NearbyEvents {
  view(view: NearbyView): void;
  invited(invite: NearbyInvite): void;
}

/** Nobody nearby, no roster: what a surface shows before the layer started. */
export const NO_NEARBY: NearbyView = { devices: [], inRoom: false };

/** A roster device's key: this, then its roster id. */
export const ROOM_KEY = 'room:';
/** A paired device's key: this, then its certificate's fingerprint. */
export const PAIR_KEY = 'pair:';

/** Names compared as a person reads them, to find a remembered device on the roster. */
function sameName(a: string, b: string): boolean {
  const clean = (name: string): string => (cleanDeviceName(name) ?? '').toLocaleLowerCase();
  return clean(a) === clean(b);
}

/**
 * The nearby devices of one program (docs/architecture.md, "Nearby devices"): it sits on the
 * roster, follows the pair rooms, merges both into one list, greys out a device that left, hands
 * a send its `Reach` and passes invitations on while no transfer runs.
 */
export class NearbyCore {
  readonly #ports: NearbyPorts;
  readonly #events: NearbyEvents;
  readonly #cancelled = new AbortController();
  readonly #unsubscribe: (() => void)[] = [];
  #intro: PresenceIntro;
  #seat: PresenceSeat | undefined;
  #retry: ClockTimer | undefined;
  /** Counts the calls to `rejoin`: each makes the seats asked for before it stale. */
  #attempt = 0;
  /** `start` was called: from then on the program keeps a seat on the roster. */
  #started = false;
  #roster: readonly PresenceEntry[] = [];
  #paired: readonly PairedDevice[] = [];
  #pairOnline: ReadonlySet<string> = new Set();
  /** The list as last shown, in the order devices first appeared, greyed-out ones included. */
  #shown = new Map<string, NearbyDeviceView>();
  readonly #greyed = new Map<string, ClockTimer>();

  constructor(ports: NearbyPorts, events: NearbyEvents) {
    this.#ports = ports;
    this.#events = events;
    this.#intro = ports.intro;
  }

  get view(): NearbyView {
    return { devices: [...this.#shown.values()], inRoom: this.#seat !== undefined };
  }

  /** Follows the pair rooms and takes a seat on the roster; settles once the first try did. */
  async start(): Promise<void> {
    this.#started = true;
    const { pairRooms } = this.#ports;
    if (pairRooms !== undefined) {
      this.#pairOnline = pairRooms.online();
      this.#unsubscribe.push(
        pairRooms.onChange((online) => {
          this.#pairOnline = online;
          this.#update();
        }),
        pairRooms.onInvite(({ device, roomId }) =>
          this.#invited({
            roomId,
            from: device.name,
            expectPeer: { fingerprint: device.fingerprint, name: device.name },
          }),
        ),
      );
      this.#update();
    }
    await this.#takeSeat();
  }

  /**
   * How a send reaches the device `key`: through its pair room, pinned to its certificate, or
   * through the roster, checked by the words. Refused once it is gone.
   */
  reachFor(key: string): Reach | IpcError {
    const shown = this.#shown.get(key);
    if (shown === undefined || !shown.online) {
      return appError('ERR_DEVICE_GONE', shown?.name ?? 'That device');
    }
    const { name } = shown;
    if (key.startsWith(PAIR_KEY)) {
      const fingerprint = key.slice(PAIR_KEY.length);
      const { pairRooms } = this.#ports;
      return {
        name,
        expectPeer: { fingerprint, name },
        deliver: async (roomId) => {
          if (pairRooms === undefined || !pairRooms.online().has(fingerprint)) {
            throw new Error(`${name} is no longer online`);
          }
          await pairRooms.invite(fingerprint, roomId);
        },
      };
    }
    const id = key.slice(ROOM_KEY.length);
    return {
      name,
      deliver: async (roomId) => {
        const seat = this.#seat;
        if (seat === undefined || !this.#roster.some((entry) => entry.id === id)) {
          throw new Error(`${name} is no longer nearby`);
        }
        seat.invite(id, roomId);
      },
    };
  }

  /** The remembered devices with a pair secret, as they stand now: their rooms follow. */
  paired(devices: readonly PairedDevice[]): void {
    this.#paired = devices;
    this.#ports.pairRooms?.update(devices);
    this.#update();
  }

  /** This program's name or kind changed: it takes its seat again as it is now. */
  introduce(intro: PresenceIntro): void {
    this.#intro = intro;
    this.rejoin();
  }

  /**
   * The roster to sit on may have changed (the desktop app started or stopped hosting its LAN
   * room, or another server was chosen): the seat held is left and one is asked for at once,
   * even where the last server kept no roster.
   */
  rejoin(): void {
    // Before `start` there is no seat to leave, and `start` takes the one asked for.
    if (!this.#started || this.#cancelled.signal.aborted) return;
    this.#retry?.cancel();
    this.#retry = undefined;
    this.#attempt += 1;
    this.#seat?.close();
    void this.#takeSeat();
  }

  close(): void {
    this.#cancelled.abort();
    this.#retry?.cancel();
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    for (const timer of this.#greyed.values()) timer.cancel();
    this.#greyed.clear();
    this.#seat?.close();
    this.#ports.pairRooms?.close();
  }

  /**
   * One try at a seat on the roster. A seat that ends is taken again: at once after `rejoin`, a
   * while later after a lost socket. A server that keeps no roster is not asked again until a
   * `rejoin`.
   */
  async #takeSeat(): Promise<void> {
    const { openPresence } = this.#ports;
    const cancelled = this.#cancelled.signal;
    if (openPresence === undefined || cancelled.aborted) return;
    const attempt = this.#attempt;
    // A seat asked for before the last `rejoin` is not taken: another is on its way.
    const stale = (): boolean => cancelled.aborted || attempt !== this.#attempt;
    let seat: PresenceSeat | undefined;
    try {
      seat = await openPresence(this.#intro, cancelled);
    } catch {
      if (!stale()) this.#retryLater();
      return;
    }
    if (stale()) seat?.close();
    if (seat === undefined || stale()) return;
    this.#take(seat);
    void seat.ended.then(() => {
      this.#leave(seat);
      if (!stale()) this.#retryLater();
    });
  }

  #retryLater(): void {
    if (this.#cancelled.signal.aborted) return;
    this.#retry = this.#ports.clock.setTimeout(() => {
      this.#retry = undefined;
      void this.#takeSeat();
    }, NEARBY_PRESENCE_RETRY_MS);
  }

  #take(seat: PresenceSeat): void {
    this.#seat = seat;
    this.#roster = seat.devices();
    const stop = [
      seat.onChange((devices) => {
        if (this.#seat !== seat) return;
        this.#roster = devices;
        this.#update();
      }),
      seat.onInvite(({ from, roomId }) => {
        if (this.#seat === seat) this.#invited({ roomId, from: from.name });
      }),
    ];
    void seat.ended.then(() => stop.forEach((unsubscribe) => unsubscribe()));
    this.#update();
  }

  #leave(seat: PresenceSeat): void {
    if (this.#seat !== seat) return;
    this.#seat = undefined;
    this.#roster = [];
    if (!this.#cancelled.signal.aborted) this.#update();
  }

  #invited(invite: NearbyInvite): void {
    if (this.#cancelled.signal.aborted || this.#ports.busy()) return;
    this.#events.invited(invite);
  }

  /** The devices there now: online paired ones, then the roster less those it already shows. */
  #live(): NearbyDeviceView[] {
    const paired = this.#paired
      .filter((device) => this.#pairOnline.has(device.fingerprint))
      .map((device): NearbyDeviceView => ({
        key: PAIR_KEY + device.fingerprint,
        name: device.name,
        kind: 'remembered',
        via: 'pair',
        online: true,
      }));
    const roster = this.#roster
      .filter((entry) => !paired.some((device) => sameName(device.name, entry.name)))
      .map((entry): NearbyDeviceView => ({
        key: ROOM_KEY + entry.id,
        name: entry.name,
        kind: entry.kind,
        shortId: entry.id,
        via: 'room',
        online: true,
      }));
    return [...paired, ...roster];
  }

  /**
   * Shows the devices there now. One that left stays, greyed out, for NEARBY_GONE_SHOWN_MS, in
   * its place: the person may be reaching for it (docs/architecture.md, "Nearby devices").
   */
  #update(): void {
    const live = new Map(this.#live().map((device) => [device.key, device]));
    const next = new Map<string, NearbyDeviceView>();
    for (const [key, shown] of this.#shown) {
      const now = live.get(key);
      if (now !== undefined) {
        this.#greyed.get(key)?.cancel();
        this.#greyed.delete(key);
        next.set(key, now);
        continue;
      }
      if (!this.#greyed.has(key)) {
        this.#greyed.set(
          key,
          this.#ports.clock.setTimeout(() => this.#forget(key), NEARBY_GONE_SHOWN_MS),
        );
      }
      next.set(key, { ...shown, online: false });
    }
    for (const [key, device] of live) if (!next.has(key)) next.set(key, device);
    this.#shown = next;
    this.#events.view(this.view);
  }

  /** A greyed-out device's time is up. */
  #forget(key: string): void {
    this.#greyed.delete(key);
    this.#shown.delete(key);
    this.#events.view(this.view);
  }
}
