import type { AcceptedBatch } from './accepted-batch';
import type { Framing } from './frame';
import type { Capability } from './messages';
import { OfferGate } from './offer-gate';
import { PartOpening } from './part-opening';
import { ReceivedFileList } from './received-file-list';
import { ReceiverCaps } from './receiver-caps';
import { ReceiverPeerCheck } from './receiver-peer-check';
import type { ReceiverConfig } from './receiver-types';

/** What a receiver adds to the spec's sequence (docs/protocol.md, "Ferry's extensions"). */
export interface ReceiverExtensions {
  /** Which extensions both sides agreed, and this side's answer to the sender's announcement. */
  caps: ReceiverCaps;
  /** The verification words, the secret link, or that nothing can be shown. */
  check: ReceiverPeerCheck;
  /** What the first offer waits for: the sender's file list and its peer check. */
  gate: OfferGate;
  /** Free space, resume and text messages, between an accepted metadata and its ack. */
  parts: PartOpening;
}

/**
 * The receiver's extensions, wired to each other and to the batch. Each reads what was agreed as
 * it stands, so a sender that announced nothing leaves every one of them idle.
 */
export function receiverExtensions(
  config: ReceiverConfig,
  framing: Framing,
  batch: AcceptedBatch,
): ReceiverExtensions {
  const caps = new ReceiverCaps({ ...config, framing });
  const agreed = (): ReadonlySet<Capability> => caps.agreed;
  const parts = new PartOpening({
    batch,
    keptBytes: config.keptBytes ?? 0,
    checksFreeSpace: config.checksFreeSpace ?? false,
    agreed,
    textOffered: () => caps.textOffered,
  });
  const check = new ReceiverPeerCheck({
    nonce: caps.speaks('sas') ? config.sasNonce : undefined,
    framing,
    agreed,
  });
  const gate = new OfferGate({
    check,
    list: new ReceivedFileList(),
    batch,
    agreed,
    isText: (file) => parts.isText(file),
    askBeforeAccepting: config.askBeforeAccepting,
    holdsLinkSecret: config.holdsLinkSecret === true,
  });
  return { caps, check, gate, parts };
}
