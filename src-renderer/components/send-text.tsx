import { useId, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { TEXT_MESSAGE_MAX_BYTES } from '../../src-shared/protocol/limits';
import { textMessageBytes } from '../../src-shared/session/text-message';
import { askToNotify } from '../page/browser-notices';
import { useFerryStores } from '../stores/stores-context';

const ERR_CLIPBOARD = 'ERR_CLIPBOARD';

/** Whether this page may read the clipboard on a person's click (not every browser lets it). */
function canPaste(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.clipboard?.readText === 'function';
}

/**
 * A typed or pasted text, sent as a text message: another Ferry shows it, any other receiver
 * saves it as `message.txt` (docs/protocol.md, "Text messages").
 */
export function SendText() {
  const { backend, notice, selection, transfer } = useFerryStores();
  const pending = useStore(transfer, (state) => state.pending);
  const startSendText = useStore(transfer, (state) => state.startSendText);
  const text = useStore(selection, (state) => state.text);
  const setText = useStore(selection, (state) => state.setText);
  const fieldId = useId();
  const hintId = useId();
  const bytes = textMessageBytes(text);
  const tooLong = bytes > TEXT_MESSAGE_MAX_BYTES;

  function paste(): void {
    navigator.clipboard.readText().then(setText, () =>
      notice.getState().show({
        code: ERR_CLIPBOARD,
        message: 'Ferry could not read the clipboard; paste into the box instead.',
      }),
    );
  }

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (text === '' || tooLong) return;
    if (backend.surface === 'browser') askToNotify();
    void startSendText(text);
  }

  return (
    <form className="send-text" onSubmit={submit}>
      <label htmlFor={fieldId}>Send a text</label>
      <textarea
        id={fieldId}
        className="text-input send-text-field"
        rows={4}
        value={text}
        aria-describedby={hintId}
        aria-invalid={tooLong}
        onChange={(event) => setText(event.target.value)}
      />
      <p id={hintId} className={tooLong ? 'field-error' : 'hint'}>
        {tooLong
          ? `Too long for a text: ${formatBytes(bytes)} of at most ${formatBytes(TEXT_MESSAGE_MAX_BYTES)}.`
          : 'Another Ferry shows it; other apps save it as message.txt.'}
      </p>
      <div className="actions">
        {canPaste() && (
          <button type="button" className="button" onClick={paste}>
            Paste from clipboard
          </button>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={text === '' || tooLong || pending}
        >
          Send text
        </button>
      </div>
    </form>
  );
}
