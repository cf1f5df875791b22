import { useRef } from 'react';
import { useStore } from 'zustand';
import { useRescueFocus } from './rescue-focus';
import { useFerryStores } from '../stores/stores-context';

/**
 * The send screen's word that the files go to one remembered device only (docs/protocol.md,
 * "Remembered devices"), and the way to send to whoever types the code instead.
 */
export function PinnedPeer({ name }: { name: string }) {
  const { selection } = useFerryStores();
  const sendTo = useStore(selection, (state) => state.sendTo);
  const self = useRef<HTMLDivElement>(null);
  // Chosen from the history, whose button gave up the focus: the keyboard goes on from here.
  useRescueFocus(self, name);
  return (
    <div ref={self} className="pinned-peer" data-testid="pinned-peer" tabIndex={-1}>
      <p>
        {`Only “${name}” can receive these files: another device that types the code is refused.`}
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => sendTo(null)}>
          Send to any device
        </button>
      </div>
    </div>
  );
}
