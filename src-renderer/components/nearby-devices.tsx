import { useId, useState, type DragEvent } from 'react';
import { useStore } from 'zustand';
import type { NearbyDeviceView } from '../../src-shared/app/nearby-core';
import { askToNotify } from '../page/browser-notices';
import { useFerryStores } from '../stores/stores-context';

const KIND_LABEL: Record<NearbyDeviceView['kind'], string> = {
  desktop: 'Desktop app',
  cli: 'Command line',
  browser: 'Browser',
  remembered: 'Remembered device',
};

const carriesFiles = (event: DragEvent): boolean => event.dataTransfer.types.includes('Files');

/**
 * The devices a send reaches with no code (docs/architecture.md, "Nearby devices"): choosing one
 * sends the chosen files, or else the text, at once; files dropped on a tile go to that device.
 * Nothing is shown where nobody is nearby and this program is on no roster.
 */
export function NearbyDevices() {
  const { backend, nearby, selection, transfer } = useFerryStores();
  const { devices, inRoom } = useStore(nearby, (state) => state.view);
  const items = useStore(selection, (state) => state.items);
  const text = useStore(selection, (state) => state.text);
  const pending = useStore(transfer, (state) => state.pending);
  const headingId = useId();
  const hintId = useId();
  if (devices.length === 0 && !inRoom) return null;
  const chosen = items.length > 0 || text !== '';

  function send(key: string): void {
    if (backend.surface === 'browser') askToNotify();
    const { startSendNearby } = transfer.getState();
    void startSendNearby(key, items.length > 0 ? { items } : { text });
  }

  return (
    <section className="nearby" data-testid="nearby" aria-labelledby={headingId}>
      <h3 id={headingId}>Nearby</h3>
      <p id={hintId} className="hint">
        {devices.length === 0
          ? 'Nobody else is here yet.'
          : chosen
            ? 'Choose a device to send to it, no code needed.'
            : 'Choose files or type a text, then a device; or drop files on a device.'}
      </p>
      {devices.length > 0 && (
        <ul className="nearby-list">
          {devices.map((device) => (
            <li key={device.key}>
              <NearbyTile
                device={device}
                disabled={!device.online || pending}
                chosen={chosen}
                describedBy={hintId}
                onChoose={() => send(device.key)}
                onDrop={(data) => {
                  if (backend.surface === 'browser') askToNotify();
                  void transfer.getState().sendDroppedTo(device.key, data);
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface TileProps {
  device: NearbyDeviceView;
  disabled: boolean;
  chosen: boolean;
  describedBy: string;
  onChoose(): void;
  onDrop(data: DataTransfer): void;
}

function NearbyTile({ device, disabled, chosen, describedBy, onChoose, onDrop }: TileProps) {
  const [dragging, setDragging] = useState(false);

  function over(event: DragEvent): void {
    if (disabled || !carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  }

  function drop(event: DragEvent): void {
    setDragging(false);
    if (disabled || !carriesFiles(event)) return;
    event.preventDefault();
    onDrop(event.dataTransfer);
  }

  return (
    // aria-disabled, not disabled: a tile that greys out under the focus keeps it.
    <button
      type="button"
      className={dragging ? 'nearby-device nearby-device--drop' : 'nearby-device'}
      data-testid="nearby-device"
      data-online={device.online}
      data-kind={device.kind}
      aria-disabled={disabled || !chosen}
      aria-describedby={describedBy}
      onClick={() => {
        if (!disabled && chosen) onChoose();
      }}
      onDragOver={over}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <span className="nearby-device-name">{device.name}</span>
      <span className="nearby-device-kind">
        {KIND_LABEL[device.kind]}
        {device.shortId === undefined ? '' : ` · ${device.shortId}`}
        {device.online ? '' : ' · gone'}
      </span>
    </button>
  );
}
