import { useCopy } from './use-copy';

/**
 * A text message as plain text with Copy (docs/protocol.md, "Text messages"): a text node, never
 * markup, so a link in it is shown, never made a link or opened. One look for a text that just
 * arrived and one the history keeps.
 */
export function CopyableText({ text, label }: { text: string; label: string }) {
  const { copied, copy } = useCopy(
    text,
    'Ferry could not copy the text; select it and copy it instead.',
  );
  return (
    <>
      <pre className="received-text" aria-label={label} tabIndex={0}>
        {text}
      </pre>
      <div className="actions">
        <button type="button" className="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <span className="visually-hidden" role="status">
          {copied ? 'The text is on the clipboard.' : ''}
        </span>
      </div>
    </>
  );
}
