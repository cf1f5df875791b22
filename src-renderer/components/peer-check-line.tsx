import type { PeerCheck } from '../../src-shared/transfer/transfer-view';

/**
 * The verification words both people compare (docs/protocol.md, "Verification words"), or
 * plainly that the other device was not verified. Shown before anything is accepted or sent,
 * and while the files move.
 */
export function PeerCheckLine({ check }: { check: PeerCheck }) {
  if (check.kind === 'unverified') {
    return (
      <p className="peer-check peer-check--unverified" data-testid="peer-check">
        Not verified: the other device cannot show verification words.
      </p>
    );
  }
  return (
    <p className="peer-check" data-testid="peer-check">
      Verification words: <strong className="verification-words">{check.words}</strong> — check the
      other device shows the same
    </p>
  );
}
