import { networkInterfaces } from 'node:os';
import { getResponder, type CiaoService, type Responder } from '@homebridge/ciao';
import { ROOM_ANNOUNCE_TIMEOUT_MS } from '../../src-shared/lan/limits';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_MIN } from '../../src-shared/protocol/limits';
import { LanError } from './lan-error';
import {
  DEFAULT_ROOM_NAME,
  roomHostName,
  roomLabel,
  roomText,
  roomUrl,
  ROOM_SERVICE_TYPE,
  type RoomAdvert,
} from './room-records';
import { errorMessage } from '../../src-shared/format/error-message';

export interface RoomAnnouncerOptions {
  /** The LAN IPv4 address the room's server listens on; the announcement leaves through its interface only. */
  address: string;
  port: number;
  /** The name the person gave the room. Default "Ferry room", which names no one. */
  name?: string;
}

export interface RoomAnnouncer {
  /**
   * The name as announced: printable, without dots, at most 63 bytes. When another room on the
   * network already has it, the responder picks the next free one ("Ferry room (2)").
   */
  readonly name: string;
  readonly url: string;
  /** Says goodbye, so other devices drop the room at once, then releases the responder. */
  close(): Promise<void>;
}

function isAddressOfThisDevice(address: string): boolean {
  return Object.values(networkInterfaces()).some((entries) =>
    (entries ?? []).some((entry) => entry.address === address),
  );
}

async function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function release(service: CiaoService, responder: Responder): Promise<void> {
  // Goodbye packets that cannot be sent leave nothing to undo: the records then just expire.
  await service.destroy().catch(() => undefined);
  await responder.shutdown().catch(() => undefined);
}

/**
 * Announces a hosted room on the local network as a DNS-SD service through a responder that
 * follows RFC 6762: it probes the name first and takes the next free one on a conflict, defends
 * it afterwards, and answers queries until closed. Fails with ERR_LAN_DISCOVERY_UNAVAILABLE when
 * the address is not this device's or its interface cannot do multicast.
 */
export async function announceRoom(options: RoomAnnouncerOptions): Promise<RoomAnnouncer> {
  const { address, port } = options;
  if (!isAddressOfThisDevice(address)) {
    throw new LanError(
      'ERR_LAN_DISCOVERY_UNAVAILABLE',
      `${address} is not an address of this device`,
    );
  }
  const advert: RoomAdvert = { address, port, pv: PROTOCOL_VERSION, pvMin: PROTOCOL_VERSION_MIN };
  let name = roomLabel(options.name ?? DEFAULT_ROOM_NAME);
  const responder = getResponder({ interface: address, disableIpv6: true });
  const service = responder.createService({
    name,
    type: ROOM_SERVICE_TYPE,
    port,
    hostname: roomHostName(address),
    txt: roomText(advert),
    restrictedAddresses: [address],
    disabledIpv6: true,
  });
  service.on('name-change', (changed) => {
    name = changed;
  });
  try {
    await withDeadline(service.advertise(), ROOM_ANNOUNCE_TIMEOUT_MS, 'announcing the room');
  } catch (error) {
    await release(service, responder);
    const detail = errorMessage(error);
    throw new LanError('ERR_LAN_DISCOVERY_UNAVAILABLE', detail, { cause: error });
  }

  let closing: Promise<void> | undefined;
  return {
    get name() {
      return name;
    },
    url: roomUrl(address, port),
    close() {
      closing ??= release(service, responder);
      return closing;
    },
  };
}
