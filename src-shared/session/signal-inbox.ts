import type { SignalingEvent } from './ports';

/**
 * Holds a signaling seat's events from the moment its socket opens. Events wait in order until
 * a listener attaches, then flow straight through; with no listener they wait again. This is
 * what makes "a signal that arrives together with the role" safe: the peer may still be between
 * joining and negotiating when the other side's offer lands (docs/protocol.md, "Connection
 * lifecycle").
 */
export class SignalInbox {
  readonly #waiting: SignalingEvent[] = [];
  readonly #listeners = new Set<(event: SignalingEvent) => void>();

  deliver(event: SignalingEvent): void {
    if (this.#listeners.size === 0) {
      this.#waiting.push(event);
      return;
    }
    for (const listener of [...this.#listeners]) listener(event);
  }

  listen(listener: (event: SignalingEvent) => void): () => void {
    this.#listeners.add(listener);
    for (const event of this.#waiting.splice(0)) listener(event);
    return () => this.#listeners.delete(listener);
  }

  clear(): void {
    this.#waiting.length = 0;
    this.#listeners.clear();
  }
}
