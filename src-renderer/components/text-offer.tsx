import { useId } from 'react';
import { useStore } from 'zustand';
import { formatBytes } from '../../src-shared/format/format-bytes';
import type { OfferView } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';
import { PeerCheckLine } from './peer-check-line';
import { StepHeading } from './step-heading';

/** A text message offered (docs/protocol.md, "Text messages"): shown once accepted, never saved. */
export function TextOffer({ offer }: { offer: OfferView }) {
  const { transfer } = useFerryStores();
  const pending = useStore(transfer, (state) => state.pending);
  const answerOffer = useStore(transfer, (state) => state.answerOffer);
  const headingId = useId();

  return (
    <section className="step" aria-labelledby={headingId}>
      <StepHeading id={headingId}>Incoming text message</StepHeading>
      <p>{`A text message of ${formatBytes(offer.totalBytes)}. It is shown here once it arrives; nothing is saved.`}</p>
      <PeerCheckLine check={offer.peerCheck} />
      <div className="actions">
        <button
          type="button"
          className="button button--primary"
          disabled={pending}
          onClick={() => void answerOffer(true)}
        >
          Accept
        </button>
        <button
          type="button"
          className="button"
          disabled={pending}
          onClick={() => void answerOffer(false)}
        >
          Decline
        </button>
      </div>
    </section>
  );
}
