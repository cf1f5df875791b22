import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';

/**
 * Accept and Decline for the offer on screen, held while an answer is on its way. `wordsAsked`:
 * Accept waits until the person said the words match. They sit in a bar that stays in sight
 * however long the offer above it is (`.offer-bar`).
 */
export function OfferAnswer({ wordsAsked = false }: { wordsAsked?: boolean }) {
  const { transfer } = useFerryStores();
  const pending = useStore(transfer, (state) => state.pending);
  const answerOffer = useStore(transfer, (state) => state.answerOffer);
  return (
    <div className="actions offer-bar">
      <button
        type="button"
        className="button button--primary"
        disabled={pending || wordsAsked}
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
  );
}
