import { useId } from 'react';
import { formatBytes } from '../../src-shared/format/format-bytes';
import type { OfferView } from '../../src-shared/transfer/transfer-view';
import { OfferAnswer } from './offer-answer';
import { OfferFrom } from './offer-from';
import { StepHeading } from './step-heading';
import { WordsQuestion } from './words-question';

/** A text message offered (docs/protocol.md, "Text messages"): shown once accepted, never saved. */
export function TextOffer({ offer, wordsAsked }: { offer: OfferView; wordsAsked: boolean }) {
  const headingId = useId();

  return (
    <section className="step" aria-labelledby={headingId}>
      <StepHeading id={headingId}>Incoming text message</StepHeading>
      <OfferFrom offer={offer} />
      <p>{`A text message of ${formatBytes(offer.totalBytes)}. It is shown here once it arrives; nothing is saved.`}</p>
      {wordsAsked && <WordsQuestion />}
      <OfferAnswer wordsAsked={wordsAsked} />
    </section>
  );
}
