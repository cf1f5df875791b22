import { useEffect, useState } from 'react';
import { useFerryStores } from '../stores/stores-context';

const ERR_CLIPBOARD = 'ERR_CLIPBOARD';
const COPIED_FOR_MS = 2000;

/**
 * Copies the receive link, its secret included (docs/protocol.md, "Secret link"), to send it
 * to the other person along a channel the signaling server does not see.
 */
export function CopyLinkButton({ link }: { link: string }) {
  const { notice } = useFerryStores();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      notice.getState().show({
        code: ERR_CLIPBOARD,
        message: 'Ferry could not copy the link; scan the QR code or read out the code instead.',
      });
    }
  }

  return (
    <>
      <button type="button" className="button" onClick={() => void copy()}>
        {copied ? 'Link copied' : 'Copy link'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'The link is on the clipboard.' : ''}
      </span>
    </>
  );
}
