import type { PeerConnectionHandlers, PeerConnectionPort } from '../../../src-shared/session/ports';

/**
 * A real connection whose opening the test decides: node-datachannel opens it as usual, and the
 * bond hears of it when the test releases it. It can also be made to fail, and says whether the
 * bond closed it.
 */
export class HeldLane {
  readonly port: PeerConnectionPort;
  #release!: () => void;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));
  #told!: () => void;
  /** Settles once the bond has heard that the lane is open. */
  readonly #toldOpen = new Promise<void>((resolve) => (this.#told = resolve));
  #handlers: PeerConnectionHandlers | undefined;
  #closed = false;

  constructor(peer: PeerConnectionPort) {
    this.port = {
      listen: (handlers) => {
        this.#handlers = handlers;
        return peer.listen({
          ...handlers,
          open: (channel) =>
            void this.#released.then(() => {
              handlers.open?.(channel);
              this.#told();
            }),
        });
      },
      setRemoteDescription: (description) => peer.setRemoteDescription(description),
      addRemoteCandidate: (candidate) => peer.addRemoteCandidate(candidate),
      close: () => {
        this.#closed = true;
        peer.close();
      },
    };
  }

  /** Lets the bond hear that the lane is open; settles once it has. */
  release(): Promise<void> {
    this.#release();
    return this.#toldOpen;
  }

  /** The connection fails as far as the bond can tell. */
  fail(reason: string): void {
    this.#handlers?.failed?.(reason);
  }

  /** The bond closed the connection. */
  get closed(): boolean {
    return this.#closed;
  }
}
