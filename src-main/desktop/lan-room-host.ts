import type { LanRoomView } from '../../src-shared/ipc/contract';
import { chooseLanAddress, findFreePort } from '../lan/lan-address';
import { announceRoom, type RoomAnnouncer } from '../lan/room-announcer';
import type { RunningServer } from '../signaling-server/start-signaling-server';
import { startWebHost } from '../web-host';
import { DEFAULT_SIGNALING_PORT } from '../../src-shared/signaling/limits';
import { errorMessage } from '../../src-shared/format/error-message';

export interface LanRoomHostOptions {
  /** The built renderer the room serves to browsers. */
  webClientRoot: string;
  /** Which address to host on; default: the best LAN address of this device. */
  address?: string;
  /**
   * Serve HTTPS, its certificate kept in `certificateFolder` (docs/architecture.md, "The LAN room
   * over HTTPS"); read at each start.
   */
  https: () => boolean;
  certificateFolder: string;
  publish: (view: LanRoomView) => void;
}

interface HostedRoom {
  server: RunningServer;
  /**
   * Resolves once the responder has probed the name and announced the room, to nothing when the
   * network cannot do multicast: the room works by its URL meanwhile.
   */
  announcing: Promise<RoomAnnouncer | undefined>;
  url: string;
  /** Served over HTTPS: its certificate's SHA-256 fingerprint. */
  fingerprint?: string;
}

/**
 * A LAN room: the embedded signaling server and the web client on one LAN origin, announced over
 * DNS-SD so other Ferry apps find it without typing an address.
 */
export class LanRoomHost {
  readonly #options: LanRoomHostOptions;
  #view: LanRoomView = { state: 'off' };
  #room: HostedRoom | undefined;
  #change: Promise<unknown> = Promise.resolve();

  constructor(options: LanRoomHostOptions) {
    this.#options = options;
  }

  get view(): LanRoomView {
    return this.#view;
  }

  /** The room's server while it is on: the desktop's own transfers then meet there. */
  get url(): string | undefined {
    return this.#room?.url;
  }

  /** The fingerprint the room's certificate has while it serves HTTPS. */
  get fingerprint(): string | undefined {
    return this.#room?.fingerprint;
  }

  /** Switches the room on or off; concurrent switches run one after another. */
  set(enabled: boolean): Promise<LanRoomView> {
    return this.#queue(() => (enabled ? this.#start() : this.#stop()));
  }

  /** Starts a room that is on again, so it serves what `https` says now. */
  restart(): Promise<LanRoomView> {
    return this.#queue(async () => {
      if (this.#room === undefined) return this.#view;
      await this.#stop();
      return this.#start();
    });
  }

  #queue(change: () => Promise<LanRoomView>): Promise<LanRoomView> {
    const next = this.#change.then(change);
    this.#change = next.catch(() => undefined);
    return next;
  }

  async #start(): Promise<LanRoomView> {
    if (this.#room) return this.#view;
    this.#show({ state: 'starting' });
    try {
      const address = this.#options.address ?? chooseLanAddress().address;
      const port = await findFreePort(address, DEFAULT_SIGNALING_PORT);
      const https = this.#options.https();
      const server = await startWebHost({
        host: address,
        port,
        root: this.#options.webClientRoot,
        signaling: { hostCandidatesOnly: true, presence: true },
        // Pages on another name that resolves here (DNS rebinding) must not reach the room.
        ownHostOnly: true,
        ...(https ? { https: { certificateFolder: this.#options.certificateFolder } } : {}),
      });
      const { url, certificateFingerprint: fingerprint } = server;
      // DNS-SD announces plain-HTTP rooms only (docs/architecture.md, "The LAN room over HTTPS"):
      // a finder would need the fingerprint from a source it can trust, not the same multicast.
      const announcing = https
        ? Promise.resolve(undefined)
        : announceRoom({ address, port: server.port }).catch(() => undefined);
      this.#room = {
        server,
        announcing,
        url,
        ...(fingerprint === undefined ? {} : { fingerprint }),
      };
      return this.#show({
        state: 'on',
        url,
        ...(fingerprint === undefined ? {} : { fingerprint }),
      });
    } catch (error) {
      const message = errorMessage(error);
      return this.#show({ state: 'failed', message: `The LAN room could not start: ${message}.` });
    }
  }

  async #stop(): Promise<LanRoomView> {
    const room = this.#room;
    this.#room = undefined;
    if (room) {
      await (await room.announcing)?.close();
      await room.server.close();
    }
    return this.#show({ state: 'off' });
  }

  #show(view: LanRoomView): LanRoomView {
    this.#view = view;
    this.#options.publish(view);
    return view;
  }
}
