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

  /** Switches the room on or off; concurrent switches run one after another. */
  set(enabled: boolean): Promise<LanRoomView> {
    const next = this.#change.then(() => (enabled ? this.#start() : this.#stop()));
    this.#change = next.catch(() => undefined);
    return next;
  }

  async #start(): Promise<LanRoomView> {
    if (this.#room) return this.#view;
    this.#show({ state: 'starting' });
    try {
      const address = this.#options.address ?? chooseLanAddress().address;
      const port = await findFreePort(address, DEFAULT_SIGNALING_PORT);
      const server = await startWebHost({
        host: address,
        port,
        root: this.#options.webClientRoot,
        signaling: { hostCandidatesOnly: true },
        // Pages on another name that resolves here (DNS rebinding) must not reach the room.
        ownHostOnly: true,
      });
      const url = `http://${address}:${server.port}`;
      const announcing = announceRoom({ address, port: server.port }).catch(() => undefined);
      this.#room = { server, announcing, url };
      return this.#show({ state: 'on', url });
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
