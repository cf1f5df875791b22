import { hostname } from 'node:os';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_MIN } from '../../src-shared/protocol/limits';
import { closeMdnsSocket, openMdnsSocket, type MdnsQuery } from './mdns-socket';
import {
  answerQuestions,
  defaultRoomName,
  fullAnnouncement,
  roomLabel,
  roomRecords,
  roomUrl,
  type RoomAdvert,
} from './room-records';

// RFC 6762 section 8.3: at least two unsolicited announcements, one second apart, so a device
// whose first copy was lost still sees the room without waiting for its next query.
const ANNOUNCE_REPEAT_MS = 1_000;

export interface RoomAnnouncerOptions {
  /** The LAN IPv4 address the room's server listens on; the announcement leaves through its interface only. */
  address: string;
  port: number;
  /** Shown in other devices' room lists. Default "Ferry on <this host>". */
  name?: string;
}

export interface RoomAnnouncer {
  /** The name as announced: printable, without dots, at most 63 bytes. */
  readonly name: string;
  readonly url: string;
  /** Says goodbye, so other devices drop the room at once, then releases the socket. */
  close(): Promise<void>;
}

/**
 * Announces a hosted room on the local network as a DNS-SD service and answers queries for it
 * until closed. Fails with ERR_LAN_DISCOVERY_UNAVAILABLE when the interface cannot do multicast.
 */
export async function announceRoom(options: RoomAnnouncerOptions): Promise<RoomAnnouncer> {
  const advert: RoomAdvert = {
    name: roomLabel(options.name ?? defaultRoomName(hostname())),
    address: options.address,
    port: options.port,
    pv: PROTOCOL_VERSION,
    pvMin: PROTOCOL_VERSION_MIN,
  };
  const records = roomRecords(advert);
  const socket = await openMdnsSocket(options.address);

  const onQuery = (query: MdnsQuery) => {
    const response = answerQuestions(query.questions, records);
    if (response) socket.respond(response);
  };
  socket.on('query', onQuery);

  const announce = () => socket.respond(fullAnnouncement(records));
  announce();
  const repeat = setTimeout(announce, ANNOUNCE_REPEAT_MS);

  let closing: Promise<void> | undefined;
  return {
    name: advert.name,
    url: roomUrl(advert.address, advert.port),
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearTimeout(repeat);
        socket.off('query', onQuery);
        // The send callback also fires on failure; either way the socket goes.
        socket.respond(fullAnnouncement(roomRecords(advert, 0)), () => resolve());
      }).then(() => closeMdnsSocket(socket));
      return closing;
    },
  };
}
