import { useEffect, useState } from 'react';
import { useFerryStores } from '../stores/stores-context';
import { COPIED_FOR_MS } from '../../src-shared/app/app-limits';
import { copyText } from '../page/copy-text';

const ERR_CLIPBOARD = 'ERR_CLIPBOARD';

/**
 * Copies `text` (page/copy-text.ts): `copied` is true for a moment after it worked, and where
 * no way of copying worked, a notice says `otherwise` (what the person can do instead).
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
    void copyText(text).then((done) => {
      if (done) setCopied(true);
      else notice.getState().show({ code: ERR_CLIPBOARD, message: otherwise });
    });
  };
  return { copied, copy };
}
