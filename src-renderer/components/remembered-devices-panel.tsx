import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { asSentence } from '../../src-shared/format/as-sentence';
import type { RememberedDevice } from '../../src-shared/devices/remembered-devices';
import type { BackendResult, DevicesView } from '../backend/ferry-backend';
import { useFerryStores } from '../stores/stores-context';
import { OwnDeviceName } from './own-device-name';

/** "Remembered on 3 March 2026", or nothing when the date was not kept. */
function rememberedOn(device: RememberedDevice): string | undefined {
  if (device.rememberedAt <= 0) return undefined;
  const date = new Date(device.rememberedAt).toLocaleDateString(undefined, { dateStyle: 'long' });
  return `Remembered on ${date}`;
}

/**
 * The devices this one remembers (docs/protocol.md, "Remembered devices"): each can be renamed
 * or forgotten, and where the backend can, accept files without asking. Without `title` the
 * panel sits in something that names it already (the web client's disclosure).
 */
export function RememberedDevicesPanel({ title = true }: { title?: boolean }) {
  const { devices } = useFerryStores();
  const current = useStore(devices, (state) => state.devices);
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  if (current === null) return null;
  const list = current.remembered;

  return (
    <section
      className="setting"
      aria-labelledby={title ? headingId : undefined}
      aria-label={title ? undefined : 'Remembered devices'}
      data-testid="remembered-devices"
    >
      {title && (
        <h3 id={headingId} ref={heading} className="setting-label" tabIndex={-1}>
          Remembered devices
        </h3>
      )}
      {/* Keyed by the name: one changed elsewhere (another window or tab) starts a fresh draft. */}
      <OwnDeviceName key={current.ownName} ownName={current.ownName} />
      {list.length === 0 ? (
        <p className="hint">
          No devices yet. When a transfer is verified, you can remember the other device on its last
          screen; next time Ferry recognises it with nothing to compare.
        </p>
      ) : (
        <ul className="device-list" aria-label="Remembered devices">
          {list.map((device) => (
            <DeviceRow
              key={device.fingerprint}
              device={device}
              onForgotten={() => heading.current?.focus()}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function DeviceRow({ device, onForgotten }: { device: RememberedDevice; onForgotten: () => void }) {
  const { backend, devices } = useFerryStores();
  const rename = useStore(devices, (state) => state.rename);
  const forget = useStore(devices, (state) => state.forget);
  const setAutoAccept = useStore(devices, (state) => state.setAutoAccept);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(device.name);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const nameId = useId();
  const fieldId = useId();
  const errorId = useId();
  const autoHintId = useId();
  const renameButton = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const when = rememberedOn(device);

  useEffect(() => {
    if (editing) field.current?.focus();
  }, [editing]);

  async function run(change: Promise<BackendResult<DevicesView>>): Promise<boolean> {
    setPending(true);
    const result = await change;
    setPending(false);
    setError(result.ok ? undefined : asSentence(result.error.message));
    return result.ok;
  }

  async function save(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (await run(rename(device.fingerprint, draft))) {
      setEditing(false);
      // The button is back once React has drawn it.
      setTimeout(() => renameButton.current?.focus(), 0);
    }
  }

  function cancelEdit(): void {
    setEditing(false);
    setError(undefined);
    setTimeout(() => renameButton.current?.focus(), 0);
  }

  async function forgetIt(): Promise<void> {
    if (await run(forget(device.fingerprint))) onForgotten();
  }

  return (
    <li className="device" aria-labelledby={nameId}>
      <span id={nameId} className="device-name">
        {device.name}
      </span>
      {when !== undefined && <span className="hint">{when}</span>}
      {editing ? (
        <form className="field-row" onSubmit={(event) => void save(event)}>
          <label htmlFor={fieldId} className="visually-hidden">
            New name for {device.name}
          </label>
          <input
            ref={field}
            id={fieldId}
            className="text-input"
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={draft}
            aria-invalid={error !== undefined}
            aria-describedby={error === undefined ? undefined : errorId}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') cancelEdit();
            }}
          />
          <button type="submit" className="button button--primary" disabled={pending}>
            Save
          </button>
          <button type="button" className="button" onClick={cancelEdit}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="actions">
          <button
            ref={renameButton}
            type="button"
            className="button"
            aria-label={`Rename ${device.name}`}
            onClick={() => {
              setDraft(device.name);
              setError(undefined);
              setEditing(true);
            }}
          >
            Rename
          </button>
          <button
            type="button"
            className="button"
            aria-label={`Forget ${device.name}`}
            disabled={pending}
            onClick={() => void forgetIt()}
          >
            Forget
          </button>
        </div>
      )}
      {backend.capabilities.autoAcceptFromDevices && (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={device.autoAccept}
              disabled={pending}
              aria-describedby={autoHintId}
              onChange={(event) =>
                void run(setAutoAccept(device.fingerprint, event.target.checked))
              }
            />
            Accept files from this device without asking
          </label>
          <p id={autoHintId} className="hint">
            {backend.surface === 'browser'
              ? 'Its files then go straight into the folder you chose on this page; until you choose one, you are asked.'
              : 'Its files then go straight to the download folder.'}
          </p>
        </>
      )}
      {error !== undefined && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
