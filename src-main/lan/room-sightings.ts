import { MAX_DISCOVERED_ROOMS, ROOM_SIGHTING_MAX_MS } from '../../src-shared/lan/limits';
import type { MdnsResponse } from './mdns-socket';
import { readRoomText, ROOM_SERVICE, roomNameOf, sameName, type LanRoom } from './room-records';

type DnsRecord = MdnsResponse['answers'][number];

interface Sighting {
  name: string;
  /** Unset until a usable TXT record arrives from the same sender. */
  room?: LanRoom;
  expiry: NodeJS.Timeout;
}

// One room per name and sender: two hosts announcing the same name are two rooms, and one's
// goodbye or TXT record never touches the other's.
function keyOf(instance: string, sender: string): string {
  return `${instance.toLowerCase()}\u0000${sender}`;
}

function byNameThenUrl(left: LanRoom, right: LanRoom): number {
  const key = (room: LanRoom) => `${room.name}\u0000${room.url}`;
  return key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0;
}

/**
 * The rooms heard on the network, read from mDNS responses: at most MAX_DISCOVERED_ROOMS, each
 * believed for at most ROOM_SIGHTING_MAX_MS after its last answer.
 */
export class RoomSightings {
  readonly #sightings = new Map<string, Sighting>();
  readonly #onExpired: () => void;

  constructor(onExpired: () => void) {
    this.#onExpired = onExpired;
  }

  /**
   * Takes in one response from `sender` and returns the instances it announced without their
   * TXT record, to be asked for.
   */
  read(records: readonly DnsRecord[], sender: string): string[] {
    const missingText: string[] = [];
    for (const record of records) {
      if (record.type !== 'PTR' || !sameName(record.name, ROOM_SERVICE)) continue;
      const name = roomNameOf(record.data);
      if (name === undefined) continue;
      const key = keyOf(record.data, sender);
      if (!record.ttl) {
        this.#forget(key);
        continue;
      }
      const known = this.#sightings.get(key);
      // A flood of announcements cannot grow the list, or the memory behind it, without bound.
      if (!known && this.#sightings.size >= MAX_DISCOVERED_ROOMS) continue;
      clearTimeout(known?.expiry);
      const expiry = setTimeout(
        () => {
          this.#forget(key);
          this.#onExpired();
        },
        Math.min(record.ttl * 1_000, ROOM_SIGHTING_MAX_MS),
      );
      this.#sightings.set(key, { name, room: known?.room, expiry });
      const textIncluded = records.some((r) => r.type === 'TXT' && sameName(r.name, record.data));
      if (!known && !textIncluded) missingText.push(record.data);
    }
    for (const record of records) {
      if (record.type !== 'TXT') continue;
      const sighting = this.#sightings.get(keyOf(record.name, sender));
      if (!sighting) continue;
      const text = record.ttl ? readRoomText(record.data, sender) : undefined;
      sighting.room = text && { name: sighting.name, ...text };
    }
    return missingText;
  }

  /** The rooms known now, sorted by name, then URL. */
  rooms(): LanRoom[] {
    return [...this.#sightings.values()]
      .flatMap((sighting) => (sighting.room ? [sighting.room] : []))
      .sort(byNameThenUrl);
  }

  clear(): void {
    [...this.#sightings.keys()].forEach((key) => this.#forget(key));
  }

  #forget(key: string): void {
    clearTimeout(this.#sightings.get(key)?.expiry);
    this.#sightings.delete(key);
  }
}
