import type { RemoteInfo } from 'node:dgram';
import { chooseLanAddress } from './lan-address';
import { closeMdnsSocket, openMdnsSocket, type MdnsResponse } from './mdns-socket';
import { ROOM_SERVICE, type LanRoom } from './room-records';
import { RoomSightings } from './room-sightings';
import { FIRST_REQUERY_MS, MAX_REQUERY_MS } from '../../src-shared/lan/limits';

export type { LanRoom } from './room-records';

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
  /**
   * Once a room is found, listen this much longer for others, then return instead of waiting
   * for the deadline. Unset: listen for the whole time.
   */
  settleMs?: number;
}

/** Watches the local network for hosted rooms until closed. */
export async function browseRooms(options: RoomBrowserOptions = {}): Promise<RoomBrowser> {
  const socket = await openMdnsSocket(options.address ?? chooseLanAddress().address);
  let reported = '[]';

  const report = () => {
    const current = sightings.rooms();
    const serialized = JSON.stringify(current);
    if (serialized === reported) return;
    reported = serialized;
    options.onRooms?.(current);
  };
  const sightings = new RoomSightings(report);

  const onResponse = (response: MdnsResponse, sender: RemoteInfo) => {
    const missingText = sightings.read(
      [...response.answers, ...response.additionals],
      sender.address,
    );
    for (const instance of missingText) socket.query([{ name: instance, type: 'TXT' }]);
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
    rooms: () => sightings.rooms(),
    close() {
      closing ??= (async () => {
        clearTimeout(requery);
        socket.off('response', onResponse);
        sightings.clear();
        await closeMdnsSocket(socket);
      })();
      return closing;
    },
  };
}

/**
 * One search for the command line's `--lan`: listens for at most `timeoutMs`, or until `settleMs`
 * after the first room appeared, and returns the rooms known then. Leaves no socket or timer
 * behind.
 */
export async function findRooms(options: FindRoomsOptions): Promise<LanRoom[]> {
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let settling: NodeJS.Timeout | undefined;
  const browser = await browseRooms({
    address: options.address,
    onRooms: (rooms) => {
      if (options.settleMs === undefined || rooms.length === 0 || settling) return;
      settling = setTimeout(stop, options.settleMs);
    },
  });
  const deadline = setTimeout(stop, options.timeoutMs);
  await stopped;
  clearTimeout(deadline);
  clearTimeout(settling);
  const rooms = browser.rooms();
  await browser.close();
  return rooms;
}
