import { useId, useRef } from 'react';
import { useStore } from 'zustand';
import { isCodeShape, isKnownCode, normalizeCode } from '../../src-shared/codes';
import { keyFor } from '../stores/code-draft-store';
import { useFerryStores } from '../stores/stores-context';
import { CodeField } from '../components/code-field';
import { useRescueFocus } from '../components/rescue-focus';
import { askToNotify } from '../page/browser-notices';
import { NotifyReason } from '../components/notify-reason';

/** Typing the sender's code. */
export function ReceiveScreen() {
  const { backend, codeDraft, transfer } = useFerryStores();
  const draft = useStore(codeDraft, (state) => state.draft);
  const setDraft = useStore(codeDraft, (state) => state.setDraft);
  const key = useStore(codeDraft, keyFor);
  const pending = useStore(transfer, (state) => state.pending);
  const startReceive = useStore(transfer, (state) => state.startReceive);
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Back from a transfer ("Receive another", "Back"): the keyboard starts here again.
  useRescueFocus(heading);
  const hintId = useId();
  const code = normalizeCode(draft);
  const ready = isCodeShape(code);

  return (
    <section className="screen" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        Receive files
      </h2>
      <form
        className="receive-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready || pending) return;
          if (backend.surface === 'browser') askToNotify();
          void startReceive(draft, key);
        }}
      >
        <CodeField value={draft} onChange={setDraft} describedBy={hintId} />
        <p id={hintId} className="hint">
          {ready && !isKnownCode(code)
            ? 'One of these words is not in Ferry’s word list; check the spelling.'
            : 'Type the words the sender reads out to you. Capitals and spaces do not matter.'}
        </p>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={!ready || pending}>
            Receive
          </button>
        </div>
        <NotifyReason />
      </form>
    </section>
  );
}
