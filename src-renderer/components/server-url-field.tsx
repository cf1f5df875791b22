import { useId, useState } from 'react';
import { useStore } from 'zustand';
import * as v from 'valibot';
import { HttpUrlSchema } from '../../src-shared/ipc/value-schemas';
import { useFerryStores } from '../stores/stores-context';

/** The signaling server address, saved on Save so a half-typed address is never used. */
export function ServerUrlField({ value }: { value: string }) {
  const { settings } = useFerryStores();
  const update = useStore(settings, (state) => state.update);
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();

  // A server chosen elsewhere (a discovered room) replaces what the field shows.
  if (shown !== value) {
    setShown(value);
    setText(value);
  }

  async function save(): Promise<void> {
    const address = text.trim();
    if (!v.is(HttpUrlSchema, address)) {
      setProblem('Enter an address that starts with http:// or https://.');
      return;
    }
    setProblem(null);
    setSaved(await update({ serverUrl: address }));
  }

  return (
    <form
      className="setting"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={inputId} className="setting-label">
        Server URL
      </label>
      <div className="field-row">
        <input
          id={inputId}
          type="url"
          className="text-input"
          spellCheck={false}
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${problemId} ${hintId}` : hintId}
          onChange={(event) => {
            setText(event.target.value);
            setSaved(false);
          }}
        />
        <button type="submit" className="button" disabled={text.trim() === value}>
          Save
        </button>
      </div>
      {problem && (
        <p id={problemId} className="field-error">
          {problem}
        </p>
      )}
      <p id={hintId} className="hint">
        The signaling server introduces the two devices; files never pass through it.
      </p>
      <p className="status-line" role="status">
        {saved ? 'Saved.' : ''}
      </p>
    </form>
  );
}
