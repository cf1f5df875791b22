import { encodeMessage } from './encode';
import { encodeFileList } from './file-list';
import type { Frame } from './frame';
import type { Capability, CapsMessage } from './messages';
import type { SenderConfig } from './sender-types';

export type SenderCapsConfig = Pick<
  SenderConfig,
  | 'caps'
  | 'files'
  | 'sas'
  | 'holdsLinkSecret'
  | 'deviceName'
  | 'rejoinSecret'
  | 'textMessage'
  | 'pairShare'
>;

/**
 * The sender's half of capability agreement (docs/protocol.md, "Capabilities"): what it offers is
 * announced once, before the first metadata, in the one frame a spec receiver ignores; what the
 * receiver's answer names too is agreed for the batch. With nothing offered no frame is added.
 */
export class SenderCaps {
  readonly #config: SenderCapsConfig;
  readonly #offered: readonly Capability[];
  #agreed = new Set<Capability>();
  #peerName: string | undefined;
  #peerPairShare: string | undefined;
  #listSent = false;

  constructor(config: SenderCapsConfig) {
    this.#config = config;
    // The words need this side's nonce and its commitment; the link's proofs reuse both nonces.
    const speaks = (cap: Capability): boolean =>
      (cap !== 'sas' && cap !== 'link') || config.sas !== undefined;
    this.#offered = (config.caps ?? []).filter(
      (cap) =>
        speaks(cap) &&
        (cap !== 'link' || config.holdsLinkSecret === true) &&
        (cap !== 'reconnect' || config.rejoinSecret !== undefined) &&
        (cap !== 'pair' || config.pairShare !== undefined),
    );
  }

  offers(cap: Capability): boolean {
    return this.#offered.includes(cap);
  }

  /** Whether an answer can count: only a sender that announced anything hears one. */
  get announced(): boolean {
    return this.#offered.length > 0;
  }

  get agreed(): ReadonlySet<Capability> {
    return this.#agreed;
  }

  /** The name the receiver announced beside `device`, once both named it. */
  get peerName(): string | undefined {
    return this.#peerName;
  }

  /** The receiver's share of the pair secret, once both named `pair`. */
  get peerPairShare(): string | undefined {
    return this.#peerPairShare;
  }

  /** The announcement, before the first metadata; none when nothing is offered. */
  announce(): Frame[] {
    const caps = this.#offered;
    if (caps.length === 0) return [];
    const config = this.#config;
    // The commitment rides in the one frame a spec receiver ignores: no frame is added for it.
    const commit = caps.includes('sas') ? config.sas?.commit : undefined;
    const name = caps.includes('device') ? config.deviceName : undefined;
    const text = caps.includes('text') && config.textMessage === true;
    const rejoin = caps.includes('reconnect') ? config.rejoinSecret : undefined;
    const pair = caps.includes('pair') ? config.pairShare : undefined;
    const message: CapsMessage = {
      type: 'ferry-caps',
      caps: [...caps],
      ...(commit === undefined ? {} : { commit }),
      ...(name === undefined ? {} : { name }),
      ...(text ? { text } : {}),
      ...(rejoin === undefined ? {} : { rejoin }),
      ...(pair === undefined ? {} : { pair }),
    };
    return [encodeMessage(message, 'text')];
  }

  /** The receiver's answer; the last one counts when a receiver that answered early answers again. */
  take(message: CapsMessage): void {
    this.#agreed = new Set(message.caps.filter((cap) => this.offers(cap)));
    // Without the receiver's share there is no secret to compute.
    if (message.pair === undefined) this.#agreed.delete('pair');
    this.#peerName = this.#agreed.has('device') ? message.name : undefined;
    this.#peerPairShare = this.#agreed.has('pair') ? message.pair : undefined;
  }

  /** A receiver about to ask its person named `list`: every file before the person decides. */
  listFiles(): Frame[] {
    if (!this.#agreed.has('list') || this.#listSent) return [];
    this.#listSent = true;
    const files = this.#config.files.map((file) => ({ name: file.fileName, size: file.fileSize }));
    return encodeFileList(files);
  }
}
