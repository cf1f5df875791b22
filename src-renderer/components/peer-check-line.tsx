import {
  LINK_MATCHED,
  rememberedDeviceLine,
  type PeerCheck,
} from '../../src-shared/transfer/transfer-view';

/**
 * The verification words both people compare (docs/protocol.md, "Verification words"), that
 * the secret link matched so there is nothing to compare ("Secret link"), that the other
 * device is a remembered one ("Remembered devices"), or plainly that the
 * other device was not verified. Shown before anything is accepted or sent, and while the files
 * move.
 */
export function PeerCheckLine({ check }: { check: PeerCheck }) {
  if (check.kind === 'link') {
    return (
      <p className="peer-check peer-check--link" data-testid="peer-check">
        {LINK_MATCHED}
      </p>
    );
  }
  if (check.kind === 'device') {
    return (
      <p className="peer-check peer-check--device" data-testid="peer-check">
        {rememberedDeviceLine(check.name)}
        {check.words === undefined ? '' : ` (words: ${check.words})`}
      </p>
    );
  }
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
