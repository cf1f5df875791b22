import type { RemoteInfo } from 'node:dgram';
import { chooseLanAddress } from './lan-address';
import { closeMdnsSocket, openMdnsSocket, type MdnsResponse } from './mdns-socket';
import { readRoomText, ROOM_SERVICE, roomNameOf, sameName, type LanRoom } from './room-records';

export type { LanRoom } from './room-records';

// RFC 6762 section 5.2: continuous queries start one second apart and at least double each time.
const FIRST_REQUERY_MS = 1_000;
// Well below the rooms' two-minute lifetime, so a lost answer or two never drops a live room.
const MAX_REQUERY_MS = 30_000;
// A stranger's lifetime is believed up to the RFC's 75 minutes, which also keeps timers in range.
const MAX_TRUSTED_TTL_SECONDS = 4_500;

export interface RoomBrowserOptions {
  /** The LAN IPv4 address whose network is searched. Default: the one chooseLanAddress() picks. */
  address?: string;
  /** Called with the whole list whenever a room appears, changes or disappears. */
  onRooms?: (rooms: LanRoom[]) => void;
}

export interface RoomBrowser {
  /** The rooms known now, sorted by name, then URL. */
  rooms(): LanRoom[];
  close(): Promise<void>;
}

export interface FindRoomsOptions {
  /** How long to listen; the search never takes longer than this. */
  timeoutMs: number;
  address?: string;
  /** Return as soon as one room is found instead of listening for the whole time. */
  first?: boolean;
}

interface Sighting {
  name: string;
  /** Unset until a usable TXT record arrives. */
  room?: LanRoom;
  expiry: NodeJS.Timeout;
}

function byNameThenUrl(left: LanRoom, right: LanRoom): number {
  const key = (room: LanRoom) => `${room.name}\u0000${room.url}`;
  return key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0;
}

/** Watches the local network for hosted rooms until closed. */
export async function browseRooms(options: RoomBrowserOptions = {}): Promise<RoomBrowser> {
  const socket = await openMdnsSocket(options.address ?? chooseLanAddress().address);
  const sightings = new Map<string, Sighting>();
  let reported = '[]';

  const rooms = () =>
    [...sightings.values()]
      .flatMap((sighting) => (sighting.room ? [sighting.room] : []))
      .sort(byNameThenUrl);

  const report = () => {
    const current = rooms();
    const serialized = JSON.stringify(current);
    if (serialized === reported) return;
    reported = serialized;
    options.onRooms?.(current);
  };

  const forget = (key: string) => {
    clearTimeout(sightings.get(key)?.expiry);
    sightings.delete(key);
  };

  const onResponse = (response: MdnsResponse, sender: RemoteInfo) => {
    const records = [...response.answers, ...response.additionals];
    for (const record of records) {
      if (record.type !== 'PTR' || !sameName(record.name, ROOM_SERVICE)) continue;
      const name = roomNameOf(record.data);
      if (name === undefined) continue;
      const key = record.data.toLowerCase();
      if (!record.ttl) {
        forget(key);
        continue;
      }
      const known = sightings.get(key);
      clearTimeout(known?.expiry);
      const lifetimeMs = Math.min(record.ttl, MAX_TRUSTED_TTL_SECONDS) * 1_000;
      const expiry = setTimeout(() => {
        forget(key);
        report();
      }, lifetimeMs);
      sightings.set(key, { name, room: known?.room, expiry });
      const textIncluded = records.some((r) => r.type === 'TXT' && sameName(r.name, record.data));
      if (!known && !textIncluded) socket.query([{ name: record.data, type: 'TXT' }]);
    }
    for (const record of records) {
      if (record.type !== 'TXT') continue;
      const sighting = sightings.get(record.name.toLowerCase());
      if (!sighting) continue;
      const text = record.ttl ? readRoomText(record.data, sender.address) : undefined;
      sighting.room = text && { name: sighting.name, ...text };
    }
    report();
  };
  socket.on('response', onResponse);

  let interval = FIRST_REQUERY_MS;
  let requery: NodeJS.Timeout | undefined;
  const ask = () => {
    socket.query([{ name: ROOM_SERVICE, type: 'PTR' }]);
    requery = setTimeout(ask, interval);
    interval = Math.min(interval * 2, MAX_REQUERY_MS);
  };
  ask();

  let closing: Promise<void> | undefined;
  return {
    rooms,
    close() {
      closing ??= (async () => {
        clearTimeout(requery);
        socket.off('response', onResponse);
        [...sightings.keys()].forEach(forget);
        await closeMdnsSocket(socket);
      })();
      return closing;
    },
  };
}

/**
 * One search for the command line's `--lan`: listens for at most `timeoutMs` and returns the
 * rooms known at the end, or the first one as soon as it appears. Leaves no socket or timer behind.
 */
export async function findRooms(options: FindRoomsOptions): Promise<LanRoom[]> {
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const browser = await browseRooms({
    address: options.address,
    onRooms: (rooms) => {
      if (options.first && rooms.length > 0) stop();
    },
  });
  const deadline = setTimeout(stop, options.timeoutMs);
  await stopped;
  clearTimeout(deadline);
  const rooms = browser.rooms();
  await browser.close();
  return options.first ? rooms.slice(0, 1) : rooms;
}
