import { useId, useRef } from 'react';
import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';
import { DropZone } from '../components/drop-zone';
import { SelectionList } from '../components/selection-list';
import { useRescueFocus } from '../components/rescue-focus';
import { askToNotify } from '../page/browser-notices';
import { NotifyReason } from '../components/notify-reason';
import { SendText } from '../components/send-text';
import { PinnedPeer } from '../components/pinned-peer';
import { NearbyDevices } from '../components/nearby-devices';

/** Choosing what to send. */
export function SendScreen() {
  const { backend, selection, transfer } = useFerryStores();
  const items = useStore(selection, (state) => state.items);
  const to = useStore(selection, (state) => state.to);
  const pending = useStore(transfer, (state) => state.pending);
  const startSend = useStore(transfer, (state) => state.startSend);
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Back from a transfer, or the last chosen item removed: the keyboard starts here again.
  useRescueFocus(heading, items.length === 0);

  return (
    <section className="screen" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        Send files
      </h2>
      <DropZone />
      <SelectionList />
      {to !== null && <PinnedPeer name={to.name} />}
      <div className="actions">
        <button
          type="button"
          className="button button--primary"
          disabled={items.length === 0 || pending}
          onClick={() => {
            if (backend.surface === 'browser') askToNotify();
            void startSend(items, to?.fingerprint);
          }}
        >
          Send
        </button>
      </div>
      <NearbyDevices />
      <NotifyReason />
      <SendText />
    </section>
  );
}
