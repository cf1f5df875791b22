import { useId, useState } from 'react';
import { useStore } from 'zustand';
import { formatBytes, MEGABYTE_BYTES } from '../../src-shared/format/format-bytes';
import { AUTO_ACCEPT_MAX_BYTES_LIMIT } from '../../src-shared/devices/auto-accept';
import { useFerryStores } from '../stores/stores-context';

/**
 * The largest batch a remembered device set to send without asking gets in unasked; a larger
 * one is asked about as usual. Typed in MB, the decimal megabytes every size is shown in,
 * saved on Save.
 */
export function AutoAcceptCapField({ value }: { value: number }) {
  const { settings } = useFerryStores();
  const update = useStore(settings, (state) => state.update);
  const [text, setText] = useState(String(Math.floor(value / MEGABYTE_BYTES)));
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();

  async function save(): Promise<void> {
    const megabytes = Number(text.trim());
    const bytes = megabytes * MEGABYTE_BYTES;
    if (!Number.isInteger(megabytes) || megabytes < 0 || bytes > AUTO_ACCEPT_MAX_BYTES_LIMIT) {
      setProblem('Enter a whole number of MB.');
      return;
    }
    setProblem(null);
    await update({ autoAcceptMaxBytes: bytes });
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
        Largest batch accepted without asking (MB)
      </label>
      <div className="field-row">
        <input
          id={inputId}
          data-testid="auto-accept-cap"
          inputMode="numeric"
          className="text-input"
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={hintId}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button">
          Save limit
        </button>
      </div>
      <p id={hintId} className="hint">
        {problem ??
          `Now ${formatBytes(value)}. A larger batch from a device set to send without asking is asked about as usual.`}
      </p>
    </form>
  );
}
