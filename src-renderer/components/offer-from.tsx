import { fromLine, shownPeerName } from '../../src-shared/devices/device-name-words';
import type { OfferView } from '../../src-shared/transfer/transfer-view';
import { PeerCheckLine } from './peer-check-line';

/**
 * The prompt's first lines: who is sending, by the name this side shows for it, and right there
 * how it was checked (docs/protocol.md, "The name shown"). A name is only a suggestion: the check
 * beside it is what says who it is.
 */
export function OfferFrom({ offer }: { offer: OfferView }) {
  return (
    <>
      <p className="peer-name" data-testid="peer-name">
        {fromLine(shownPeerName({ check: offer.peerCheck, announcedName: offer.announcedName }))}
      </p>
      <PeerCheckLine check={offer.peerCheck} />
    </>
  );
}
