import { useCopy } from './use-copy';

/**
 * Copies the receive link, its secret included (docs/protocol.md, "Secret link"), to send it
 * to the other person along a channel the signaling server does not see.
 */
export function CopyLinkButton({ link }: { link: string }) {
  const { copied, copy } = useCopy(
    link,
    'Ferry could not copy the link; scan the QR code or read out the code instead.',
  );

  return (
    <>
      <button type="button" className="button" onClick={copy}>
        {copied ? 'Link copied' : 'Copy link'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'The link is on the clipboard.' : ''}
      </span>
    </>
  );
}
