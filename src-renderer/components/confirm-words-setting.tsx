import { useId } from 'react';
import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';

/** "Confirm the words before any file moves", the command line's `--verify`. */
export function ConfirmWordsSetting() {
  const { settings } = useFerryStores();
  const current = useStore(settings, (state) => state.settings);
  const update = useStore(settings, (state) => state.update);
  const hintId = useId();
  if (!current) return null;
  return (
    <div className="setting">
      <label className="check">
        <input
          type="checkbox"
          data-testid="confirm-words-setting"
          checked={current.confirmWords}
          aria-describedby={hintId}
          onChange={(event) => void update({ confirmWords: event.target.checked })}
        />
        Confirm the words before any file moves
      </label>
      <p id={hintId} className="hint">
        Files wait until you say the three words match on both devices. A device that cannot show
        words is refused.
      </p>
    </div>
  );
}
