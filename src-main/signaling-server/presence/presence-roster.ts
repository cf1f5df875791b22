import type { PresenceEntry } from '../../../src-shared/nearby/nearby-ports';
import {
  PRESENCE_ID_ALPHABET,
  PRESENCE_ID_CHARS,
  PRESENCE_INVITES_PER_WINDOW,
  PRESENCE_ROSTER_MAX,
} from '../../../src-shared/nearby/nearby-limits';
import {
  PRESENCE_ERROR,
  type PresenceClientMessage,
  type PresenceServerMessage,
} from '../../../src-shared/nearby/presence-wire';
import { HTTP_ERROR } from '../../../src-shared/signaling/http-api';
import { RATE_WINDOW_MS } from '../../../src-shared/signaling/limits';
import { inMemoryRateLimiter } from '../access/rate-limiter';
import type { RandomIndex } from '../codes/code-registrar';
import type { LogSink } from '../log-sink';

/** How the roster reaches one connection, whatever its transport. */
export interface PresenceLink {
  /** The transport's own id of the connection. */
  readonly id: string;
  tell(message: PresenceServerMessage): void;
  /** Answers a refused request with the transport's `error`. */
  fail(message: string): void;
}

interface Listed {
  link: PresenceLink;
  entry: PresenceEntry;
}

/**
 * The presence extension's roster (docs/protocol.md, "Presence"): the programs connected to this
 * server that asked to be listed, each told the whole roster (itself excluded) on every change,
 * and the invitations they send one another. It lives in this process alone, never in a
 * cluster's shared state: a LAN room is one server.
 */
export class PresenceRoster {
  private readonly listed = new Map<string, Listed>();
  private readonly invites = inMemoryRateLimiter(
    'presence-invites',
    PRESENCE_INVITES_PER_WINDOW,
    RATE_WINDOW_MS,
  );

  constructor(
    private readonly randomIndex: RandomIndex,
    private readonly log: LogSink,
  ) {}

  /** Acts on one request; a failure inside reaches the program as an `error`, its stack the log. */
  handle(link: PresenceLink, message: PresenceClientMessage): void {
    this.act(link, message).catch((error: unknown) => {
      this.log.error(
        `Presence failed for peer ${link.id}: ${error instanceof Error ? error.stack : String(error)}`,
      );
      link.fail(HTTP_ERROR.internal);
    });
  }

  private async act(link: PresenceLink, message: PresenceClientMessage): Promise<void> {
    switch (message.type) {
      case 'presence-join':
        this.join(link, message.name, message.kind);
        break;
      case 'presence-invite':
        await this.invite(link, message.to, message.roomId);
        break;
      case 'presence-leave':
        this.leave(link.id);
        break;
    }
  }

  /** Takes a connection off the roster, if it is on it, and tells everyone left at once. */
  leave(linkId: string): void {
    if (this.listed.delete(linkId)) this.tellEveryone();
  }

  /** A second join renames the device and keeps its id. */
  private join(link: PresenceLink, name: string, kind: PresenceEntry['kind']): void {
    const known = this.listed.get(link.id);
    if (known === undefined && this.listed.size >= PRESENCE_ROSTER_MAX) {
      link.fail(PRESENCE_ERROR.rosterFull);
      return;
    }
    const id = known?.entry.id ?? this.drawId();
    this.listed.set(link.id, { link, entry: { id, name, kind } });
    this.tellEveryone();
  }

  private async invite(link: PresenceLink, to: string, roomId: string): Promise<void> {
    const from = this.listed.get(link.id);
    if (from === undefined) {
      link.fail(PRESENCE_ERROR.notListed);
      return;
    }
    if (!(await this.invites.hit(link.id))) {
      link.fail(PRESENCE_ERROR.tooManyInvites);
      return;
    }
    const target = [...this.listed.values()].find(
      (other) => other.entry.id === to && other !== from,
    );
    if (target === undefined) {
      link.fail(PRESENCE_ERROR.unknownDevice);
      return;
    }
    target.link.tell({ type: 'presence-invite', from: from.entry, roomId });
  }

  private tellEveryone(): void {
    const everyone = [...this.listed.values()];
    for (const { link, entry } of everyone) {
      const devices = everyone.filter((other) => other.link !== link).map((other) => other.entry);
      link.tell({ type: 'presence', self: entry.id, devices });
    }
  }

  /** A fresh random id: a client can neither choose one nor take another's. */
  private drawId(): string {
    const taken = new Set([...this.listed.values()].map(({ entry }) => entry.id));
    for (;;) {
      let id = '';
      for (let at = 0; at < PRESENCE_ID_CHARS; at += 1) {
        id += PRESENCE_ID_ALPHABET[this.randomIndex(PRESENCE_ID_ALPHABET.length)];
      }
      if (!taken.has(id)) return id;
    }
  }
}
