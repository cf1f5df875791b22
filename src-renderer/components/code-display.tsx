import { Fragment } from 'react';
import { useCopy } from './use-copy';

/** The code in large type, word by word, with a Copy button. */
export function CodeDisplay({ code }: { code: string }) {
  const { copied, copy } = useCopy(
    code,
    'Ferry could not copy the code; select the words and copy them instead.',
  );

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
      <button type="button" className="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'The code is on the clipboard.' : ''}
      </span>
    </div>
  );
}
