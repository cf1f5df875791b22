import { useId } from 'react';
import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';
import { asSentence } from '../../src-shared/format/as-sentence';
import { QrCode } from './qr-code';

/** Hosting a LAN room on this device, and using one another Ferry announces. */
export function LanRoomPanel() {
  const { lanRoom, settings } = useFerryStores();
  const room = useStore(lanRoom, (state) => state.room);
  const discovered = useStore(lanRoom, (state) => state.discovered);
  const pending = useStore(lanRoom, (state) => state.pending);
  const setHosting = useStore(lanRoom, (state) => state.setHosting);
  const serverUrl = useStore(settings, (state) => state.settings?.serverUrl);
  const https = useStore(settings, (state) => state.settings?.lanRoomHttps ?? false);
  const update = useStore(settings, (state) => state.update);
  const headingId = useId();
  const httpsHintId = useId();
  const hosting = room.state === 'on' || room.state === 'starting';

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>LAN room</h3>
      <p className="hint">
        Phones and computers on this network can then send and receive through this computer,
        without the internet.
      </p>
      <button
        type="button"
        role="switch"
        aria-checked={hosting}
        className="switch"
        disabled={pending || room.state === 'starting'}
        onClick={() => void setHosting(!hosting)}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        Host a LAN room
      </button>
      <label className="check">
        <input
          type="checkbox"
          checked={https}
          aria-describedby={httpsHintId}
          disabled={pending || room.state === 'starting'}
          onChange={(event) => void update({ lanRoomHttps: event.target.checked })}
        />
        Serve the room over HTTPS
      </label>
      <p id={httpsHintId} className="hint">
        Pages then get everything a secure site gets. Browsers warn once about this computer’s own
        certificate: continue only if the fingerprint the browser shows is the one below.
      </p>
      {room.state === 'starting' && <p className="hint">Starting the room…</p>}
      {room.state === 'on' && (
        <div className="lan-address">
          <p>
            On another device on this network, open{' '}
            <span className="url" data-testid="lan-url">
              {room.url}
            </span>{' '}
            or scan this code.
          </p>
          <QrCode text={room.url} label="QR code of the LAN room address" />
          {room.fingerprint !== undefined && (
            <p>
              Certificate fingerprint (SHA-256):{' '}
              <span className="url" data-testid="lan-fingerprint">
                {room.fingerprint}
              </span>
            </p>
          )}
        </div>
      )}
      {room.state === 'failed' && <p className="field-error">{asSentence(room.message)}</p>}

      <h4>Rooms on this network</h4>
      {discovered.length === 0 ? (
        <p className="hint">No other Ferry rooms found on this network.</p>
      ) : (
        <ul className="room-list" aria-label="Rooms on this network">
          {discovered.map((found) => (
            <li key={`${found.name}@${found.url}`}>
              <span className="room-name">{found.name}</span>
              <span className="url">{found.url}</span>
              {found.url === serverUrl ? (
                <span className="badge">In use</span>
              ) : (
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={`Use ${found.name}`}
                  onClick={() => void update({ serverUrl: found.url })}
                >
                  Use
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
