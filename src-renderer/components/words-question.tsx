import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';

/**
 * "Confirm the words before any file moves": the person says whether the other device shows the
 * same words. A sender's files wait for "The words match"; a receiver's Accept does too. "They
 * don't match" stops the transfer before any file data moves.
 */
export function WordsQuestion() {
  const { transfer } = useFerryStores();
  const pending = useStore(transfer, (state) => state.pending);
  const answerWords = useStore(transfer, (state) => state.answerWords);
  return (
    <div role="group" aria-label="Do the words match?">
      <p className="hint">Nothing moves until you compare the words with the other person.</p>
      <div className="actions">
        <button
          type="button"
          className="button button--primary"
          data-testid="words-match"
          disabled={pending}
          onClick={() => void answerWords(true)}
        >
          The words match
        </button>
        <button
          type="button"
          className="button"
          data-testid="words-differ"
          disabled={pending}
          onClick={() => void answerWords(false)}
        >
          They don’t match
        </button>
      </div>
    </div>
  );
}
