import { Fragment, useEffect, useState } from 'react';
import { useFerryStores } from '../stores/stores-context';

const ERR_CLIPBOARD = 'ERR_CLIPBOARD';
const COPIED_FOR_MS = 2000;

/** The code in large type, word by word, with a Copy button. */
export function CodeDisplay({ code }: { code: string }) {
  const { notice } = useFerryStores();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      notice.getState().show({
        code: ERR_CLIPBOARD,
        message: 'Ferry could not copy the code; select the words and copy them instead.',
      });
    }
  }

  return (
    <div className="code-display">
      <p className="code-words" data-testid="transfer-code">
        {code.split('-').map((word, index) => (
          <Fragment key={index}>
            {index > 0 && <span className="code-separator">-</span>}
            <span className="code-word">{word}</span>
          </Fragment>
        ))}
      </p>
      <button type="button" className="button" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'The code is on the clipboard.' : ''}
      </span>
    </div>
  );
}
