import { useStore } from 'zustand';
import { formatSpeed } from '../../src-shared/format/format-bytes';
import { formatDuration } from '../../src-shared/format/format-duration';
import { SECOND_MS } from '../../src-shared/time-units';
import { useFerryStores } from '../stores/stores-context';

/**
 * How long the files took and how fast they went on average, once done: `travelledBytes` is
 * what crossed the network, so bytes a resume found already there do not inflate the speed.
 */
export function TransferTiming({ travelledBytes }: { travelledBytes: number }) {
  const { transfer } = useFerryStores();
  const elapsedMs = useStore(transfer, (state) => state.elapsedMs);
  if (elapsedMs === null) return null;
  if (elapsedMs < SECOND_MS) {
    return (
      <p className="hint" data-testid="transfer-timing">
        Took less than a second.
      </p>
    );
  }
  const speed = formatSpeed((travelledBytes * SECOND_MS) / elapsedMs);
  return (
    <p className="hint" data-testid="transfer-timing">
      Took {formatDuration(elapsedMs / SECOND_MS)}, {speed} on average.
    </p>
  );
}
