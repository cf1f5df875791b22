import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { asSentence } from '../../src-shared/format/as-sentence';
import type { PeerSummary } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';

/**
 * After a transfer that verified the other device, the way to remember it, so that the next
 * transfer with it needs nothing compared (docs/protocol.md, "Remembered devices"). A device
 * remembered already is named instead; an unverified one cannot be remembered.
 */
export function RememberDevice({ peer }: { peer: PeerSummary }) {
  const { check } = peer;
  if (check.kind === 'unverified') return null;
  if (check.kind === 'device') {
    return (
      <p className="remember-device" data-testid="remembered-peer">
        Remembered device “{check.name}”
      </p>
    );
  }
  return <RememberForm peer={peer} wordsOnly={check.kind === 'words'} />;
}

function RememberForm({ peer, wordsOnly }: { peer: PeerSummary; wordsOnly: boolean }) {
  const { devices } = useFerryStores();
  const rememberPeer = useStore(devices, (state) => state.rememberPeer);
  const [name, setName] = useState(peer.announcedName ?? '');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [remembered, setRemembered] = useState<string | undefined>();
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();
  const doneLine = useRef<HTMLParagraphElement>(null);

  // The form goes away under the focused button: the focus moves to what replaced it.
  useEffect(() => {
    if (remembered !== undefined) doneLine.current?.focus();
  }, [remembered]);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    const result = await rememberPeer(name);
    setPending(false);
    if (!result.ok) {
      setError(asSentence(result.error.message));
      return;
    }
    setError(undefined);
    const saved = result.value.remembered.find((device) => device.fingerprint === peer.fingerprint);
    setRemembered(saved?.name ?? name.trim());
  }

  if (remembered !== undefined) {
    return (
      <p
        ref={doneLine}
        className="remember-device"
        role="status"
        tabIndex={-1}
        data-testid="remembered-peer"
      >
        Remembered as “{remembered}”.
      </p>
    );
  }

  return (
    <form
      className="remember-device"
      data-testid="remember-device"
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={inputId} className="setting-label">
        {wordsOnly ? 'If the words matched, remember this device as' : 'Remember this device as'}
      </label>
      <div className="field-row">
        <input
          id={inputId}
          className="text-input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={name}
          aria-invalid={error !== undefined}
          aria-describedby={error === undefined ? hintId : `${errorId} ${hintId}`}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="button" disabled={pending}>
          Remember
        </button>
      </div>
      <p id={hintId} className="hint">
        Next time, Ferry recognises it with nothing to compare.
      </p>
      {error !== undefined && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
