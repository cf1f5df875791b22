import { useEffect, useState } from 'react';
import { useFerryStores } from '../stores/stores-context';
import { COPIED_FOR_MS } from '../../src-shared/app/app-limits';

const ERR_CLIPBOARD = 'ERR_CLIPBOARD';

/**
 * Copies `text` to the clipboard: `copied` is true for a moment after it worked, and a failure
 * becomes a notice saying `otherwise` (what the person can do instead).
 */
export function useCopy(text: string, otherwise: string): { copied: boolean; copy: () => void } {
  const { notice } = useFerryStores();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = (): void => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => notice.getState().show({ code: ERR_CLIPBOARD, message: otherwise }),
    );
  };
  return { copied, copy };
}
