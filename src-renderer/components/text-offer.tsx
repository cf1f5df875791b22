import { useId } from 'react';
import { formatBytes } from '../../src-shared/format/format-bytes';
import type { OfferView } from '../../src-shared/transfer/transfer-view';
import { OfferAnswer } from './offer-answer';
import { PeerCheckLine } from './peer-check-line';
import { StepHeading } from './step-heading';
import { WordsQuestion } from './words-question';

/** A text message offered (docs/protocol.md, "Text messages"): shown once accepted, never saved. */
export function TextOffer({ offer, wordsAsked }: { offer: OfferView; wordsAsked: boolean }) {
  const headingId = useId();

  return (
    <section className="step" aria-labelledby={headingId}>
      <StepHeading id={headingId}>Incoming text message</StepHeading>
      <p>{`A text message of ${formatBytes(offer.totalBytes)}. It is shown here once it arrives; nothing is saved.`}</p>
      <PeerCheckLine check={offer.peerCheck} />
      {wordsAsked && <WordsQuestion />}
      <OfferAnswer wordsAsked={wordsAsked} />
    </section>
  );
}
