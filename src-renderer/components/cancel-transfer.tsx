import { useId } from 'react';
import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';

/** Cancel for any running step, with what cancelling costs when it costs something. */
export function CancelTransfer({ consequence }: { consequence?: string }) {
  const { transfer } = useFerryStores();
  const cancel = useStore(transfer, (state) => state.cancel);
  const consequenceId = useId();
  return (
    <div className="cancel-transfer">
      {consequence && (
        <p id={consequenceId} className="hint">
          {consequence}
        </p>
      )}
      <button
        type="button"
        className="button"
        aria-describedby={consequence ? consequenceId : undefined}
        onClick={() => void cancel()}
      >
        Cancel
      </button>
    </div>
  );
}
