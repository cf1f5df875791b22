import { useId } from 'react';
import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';
import { HistoryPanel } from '../components/history-panel';
import { LanRoomPanel } from '../components/lan-room-panel';
import { RememberedDevicesPanel } from '../components/remembered-devices-panel';
import { ServerUrlField } from '../components/server-url-field';
import { ConfirmWordsSetting } from '../components/confirm-words-setting';
import { AutoAcceptCapField } from '../components/auto-accept-cap-field';

/** Where Ferry connects, where files land, the devices it remembers and its history. */
export function SettingsScreen() {
  const { backend, settings } = useFerryStores();
  const current = useStore(settings, (state) => state.settings);
  const update = useStore(settings, (state) => state.update);
  const chooseDownloadFolder = useStore(settings, (state) => state.chooseDownloadFolder);
  const headingId = useId();
  const folderId = useId();
  const statsHintId = useId();

  if (!current) return null;

  return (
    <section className="screen" aria-labelledby={headingId}>
      <h2 id={headingId}>Settings</h2>
      <ServerUrlField value={current.serverUrl} />
      <div className="setting" role="group" aria-labelledby={folderId}>
        <span id={folderId} className="setting-label">
          Download folder
        </span>
        <div className="field-row">
          <span className="path">{current.downloadFolder}</span>
          {backend.capabilities.chooseDestination && (
            <button type="button" className="button" onClick={() => void chooseDownloadFolder()}>
              Change
            </button>
          )}
        </div>
      </div>
      <div className="setting">
        <label className="check">
          <input
            type="checkbox"
            checked={current.reportStats}
            aria-describedby={statsHintId}
            onChange={(event) => void update({ reportStats: event.target.checked })}
          />
          Report transfer sizes to the server&apos;s anonymous counter
        </label>
        <p id={statsHintId} className="hint">
          Only the size of each transfer you receive is added to one running total; never names,
          contents or who you are.
        </p>
      </div>
      <ConfirmWordsSetting />
      {backend.capabilities.autoAcceptFromDevices && (
        <AutoAcceptCapField value={current.autoAcceptMaxBytes} />
      )}
      <RememberedDevicesPanel />
      <HistoryPanel />
      {backend.capabilities.lanRoom && <LanRoomPanel />}
    </section>
  );
}
