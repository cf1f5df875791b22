import { useId, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { asSentence } from '../../src-shared/format/as-sentence';
import { useFerryStores } from '../stores/stores-context';

/**
 * This device's own name, which the other device shows as "From …" and suggests under "Remember
 * this device as" (docs/protocol.md, "The name shown"). It counts from the next transfer.
 */
export function OwnDeviceName({ ownName }: { ownName: string }) {
  const { devices } = useFerryStores();
  const renameSelf = useStore(devices, (state) => state.renameSelf);
  const [draft, setDraft] = useState(ownName);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();

  async function save(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setPending(true);
    const result = await renameSelf(draft);
    setPending(false);
    setError(result.ok ? undefined : asSentence(result.error.message));
  }

  return (
    <form className="own-device-name" onSubmit={(event) => void save(event)}>
      <label htmlFor={fieldId} className="setting-label">
        This device’s name
      </label>
      <div className="field-row">
        <input
          id={fieldId}
          className="text-input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          data-testid="device-name"
          value={draft}
          aria-invalid={error !== undefined}
          aria-describedby={error === undefined ? hintId : `${hintId} ${errorId}`}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="submit"
          className="button"
          data-testid="device-name-save"
          disabled={pending || draft === ownName}
        >
          Save name
        </button>
      </div>
      <p id={hintId} className="hint">
        Other devices see it when you send or receive, and may remember this one by it.
      </p>
      {error !== undefined && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
