import type { Redis } from 'ioredis';
import type { PeerAddress } from '../rooms/peer-address';
import type { PeerEvent } from '../rooms/peer-event';
import type { PeerRelay } from '../rooms/peer-relay';
import { REDIS_CHANNELS } from './redis-keys';

interface RelayedEvent {
  peerId: string;
  event: PeerEvent;
}

const EVENT_TYPES: ReadonlySet<string> = new Set<PeerEvent['type']>([
  'room-joined',
  'user-connected',
  'signal',
  'peer-disconnected',
  'room-full',
  'error',
]);

function decodeRelayedEvent(text: string): RelayedEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { peerId, event } = value as Record<string, unknown>;
  if (typeof peerId !== 'string' || typeof event !== 'object' || event === null) return undefined;
  const type: unknown = (event as Record<string, unknown>).type;
  // Only servers of the cluster publish here, so a known type vouches for the rest of the event.
  return typeof type === 'string' && EVENT_TYPES.has(type)
    ? { peerId, event: event as PeerEvent }
    : undefined;
}

/**
 * Events for WebSocket peers connected to other servers, over Redis pub/sub: each server listens
 * on its own inbox channel, and a sender publishes to the inbox of the peer's server.
 */
export class WsRelay implements PeerRelay {
  private constructor(private readonly publisher: Redis) {}

  /** Starts hearing this server's inbox; resolves once the subscription is in place. */
  static async listen(
    publisher: Redis,
    subscriber: Redis,
    instance: string,
    deliverHere: (peerId: string, event: PeerEvent) => void,
  ): Promise<WsRelay> {
    const inbox = REDIS_CHANNELS.wsInbox + instance;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== inbox) return;
      const relayed = decodeRelayedEvent(message);
      if (relayed !== undefined) deliverHere(relayed.peerId, relayed.event);
    });
    await subscriber.subscribe(inbox);
    return new WsRelay(publisher);
  }

  async deliver(address: PeerAddress, event: PeerEvent): Promise<void> {
    const relayed: RelayedEvent = { peerId: address.id, event };
    await this.publisher.publish(
      REDIS_CHANNELS.wsInbox + address.instance,
      JSON.stringify(relayed),
    );
  }
}
