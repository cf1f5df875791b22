import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { SECOND_MS } from '../../src-shared/time-units';
import { useFerryStores } from '../stores/stores-context';

/** `m:ss` of what is left, rounded up, so the last second shows as 0:01, not 0:00. */
export function timeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / SECOND_MS));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * How long the code on screen still works, counting down each second: a code lasts 10 minutes
 * (docs/protocol.md, "Short codes"), and nothing else would say so.
 */
export function CodeCountdown() {
  const { transfer } = useFerryStores();
  const expiresAt = useStore(transfer, (state) => state.codeExpiresAt);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === null) return undefined;
    const ticking = setInterval(() => setNow(Date.now()), SECOND_MS);
    return () => clearInterval(ticking);
  }, [expiresAt]);
  if (expiresAt === null) return null;
  const left = expiresAt - now;
  return (
    // A timer, not a live region: a screen reader reads it when asked, not every second.
    <p className="hint code-countdown" role="timer" data-testid="code-countdown">
      {left > 0 ? `This code works for ${timeLeft(left)} more.` : 'This code has expired.'}
    </p>
  );
}
