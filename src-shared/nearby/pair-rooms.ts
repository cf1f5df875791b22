import * as v from 'valibot';
import { SAS_HEX_PATTERN } from '../protocol/limits';
import type { Clock, ClockTimer, SignalingEvent, SignalingPort } from '../session/ports';
import { SessionFailure } from '../session/session-failure';
import { isRoomId } from '../signaling/room-id';
import { PAIR_ROOMS_MAX, PAIR_ROOM_RETRY_MS } from './nearby-limits';
import type { PairedDevice, PairRooms } from './nearby-ports';
import { inviteProof, inviteProofHolds, pairRoomId } from './pair-secret';

// Waiting in the pair rooms of the remembered devices (docs/protocol.md, "Pair rooms";
// docs/architecture.md, "Nearby devices"): one seat per room, on the runtime's own `joinRoom`.

export interface PairRoomsPorts {
  /** The runtime's join, the one its flows use (src-shared/session/ports.ts). */
  joinRoom(roomId: string, cancelled: AbortSignal): Promise<SignalingPort>;
  clock: Clock;
  /** The devices to wait for from the start; `update` changes them later. */
  devices?: readonly PairedDevice[];
}

/** What travels through a pair room, in the seat's `signal`: never a negotiation payload. */
export interface InviteSignal {
  type: 'ferry-invite';
  roomId: string;
  proof: string;
}

const INVITE = v.object({
  type: v.literal('ferry-invite'),
  roomId: v.pipe(
    v.string(),
    v.check((text) => isRoomId(text)),
  ),
  proof: v.pipe(v.string(), v.regex(SAS_HEX_PATTERN)),
});

/**
 * Waits in the pair room of each device given (at most PAIR_ROOMS_MAX, the first ones): a device
 * is online while someone else sits in its room. A room that cannot be held (full, server gone,
 * socket lost) counts as offline and is joined again after PAIR_ROOM_RETRY_MS.
 */
export function createPairRooms(ports: PairRoomsPorts): PairRooms {
  const watches = new Map<string, RoomWatch>();
  const changeListeners = new Set<(online: ReadonlySet<string>) => void>();
  const inviteListeners = new Set<(invite: { device: PairedDevice; roomId: string }) => void>();
  let closed = false;

  const online = (): ReadonlySet<string> =>
    new Set([...watches.values()].filter((watch) => watch.online).map((w) => w.device.fingerprint));
  const changed = (): void => {
    const now = online();
    for (const listener of [...changeListeners]) listener(now);
  };
  const invited = (device: PairedDevice, roomId: string): void => {
    for (const listener of [...inviteListeners]) listener({ device, roomId });
  };

  const update = (devices: readonly PairedDevice[]): void => {
    if (closed) return;
    const wanted = devices.slice(0, PAIR_ROOMS_MAX);
    const before = online();
    for (const [fingerprint, watch] of watches) {
      const still = wanted.find((device) => device.fingerprint === fingerprint);
      // A forgotten device's room is left for good; a new secret means a new room.
      if (still === undefined || still.pairSecret !== watch.device.pairSecret) {
        watch.stop();
        watches.delete(fingerprint);
      } else {
        watch.device = still;
      }
    }
    for (const device of wanted) {
      if (watches.has(device.fingerprint)) continue;
      const watch = new RoomWatch(ports, device, { changed, invited });
      watches.set(device.fingerprint, watch);
      watch.start();
    }
    if (!sameSet(before, online())) changed();
  };

  update(ports.devices ?? []);

  return {
    online,
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    onInvite(listener) {
      inviteListeners.add(listener);
      return () => inviteListeners.delete(listener);
    },
    async invite(fingerprint, roomId) {
      const watch = watches.get(fingerprint);
      if (watch === undefined) throw notOnline('that device');
      await watch.invite(roomId);
    },
    update,
    close() {
      closed = true;
      for (const watch of watches.values()) watch.stop();
      watches.clear();
      changeListeners.clear();
      inviteListeners.clear();
    },
  };
}

interface WatchEvents {
  changed(): void;
  invited(device: PairedDevice, roomId: string): void;
}

/** One pair room: joined, watched for the other device, joined again when the seat is lost. */
class RoomWatch {
  device: PairedDevice;
  readonly #ports: PairRoomsPorts;
  readonly #events: WatchEvents;
  readonly #stopped = new AbortController();
  #seat: SignalingPort | undefined;
  #online = false;
  #retry: ClockTimer | undefined;

  constructor(ports: PairRoomsPorts, device: PairedDevice, events: WatchEvents) {
    this.device = device;
    this.#ports = ports;
    this.#events = events;
  }

  get online(): boolean {
    return this.#online;
  }

  start(): void {
    void this.#join();
  }

  stop(): void {
    this.#stopped.abort();
    this.#retry?.cancel();
    this.#seat?.close();
    this.#seat = undefined;
    this.#online = false;
  }

  async invite(roomId: string): Promise<void> {
    const seat = this.#seat;
    if (seat === undefined || !this.#online) throw notOnline(`“${this.device.name}”`);
    const proof = await inviteProof(this.device.pairSecret, roomId);
    const signal: InviteSignal = { type: 'ferry-invite', roomId, proof };
    seat.signal(signal);
  }

  async #join(): Promise<void> {
    const { signal } = this.#stopped;
    let seat: SignalingPort;
    try {
      const roomId = await pairRoomId(this.device.pairSecret);
      seat = await this.#ports.joinRoom(roomId, signal);
    } catch {
      // A stranger in the room (room-full), or no server: offline until the next try.
      this.#later();
      return;
    }
    if (signal.aborted) {
      seat.close();
      return;
    }
    this.#seat = seat;
    // Second into the room: the other device is there already.
    this.#set(seat.role === 'receiver');
    seat.listen((event) => this.#on(seat, event));
  }

  #on(seat: SignalingPort, event: SignalingEvent): void {
    if (seat !== this.#seat) return;
    switch (event.type) {
      case 'user-connected':
        this.#set(true);
        return;
      case 'peer-disconnected':
        // The one left in a room keeps its seat: whoever comes next is told it is here.
        this.#set(false);
        return;
      case 'signal':
        void this.#take(event.payload);
        return;
      case 'lost':
        seat.close();
        this.#seat = undefined;
        this.#set(false);
        this.#later();
        return;
    }
  }

  /** An invitation counts only with the proof this device's secret makes; anything else is dropped. */
  async #take(payload: unknown): Promise<void> {
    const read = v.safeParse(INVITE, payload);
    if (!read.success) return;
    const { roomId, proof } = read.output;
    const device = this.device;
    if (!(await inviteProofHolds(device.pairSecret, roomId, proof))) return;
    if (!this.#stopped.signal.aborted) this.#events.invited(device, roomId);
  }

  #set(online: boolean): void {
    if (this.#online === online) return;
    this.#online = online;
    this.#events.changed();
  }

  #later(): void {
    if (this.#stopped.signal.aborted) return;
    this.#retry = this.#ports.clock.setTimeout(() => {
      this.#retry = undefined;
      if (!this.#stopped.signal.aborted) void this.#join();
    }, PAIR_ROOM_RETRY_MS);
  }
}

function notOnline(who: string): SessionFailure {
  return new SessionFailure('ERR_NOT_ONLINE', `${who} is not online`);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}
