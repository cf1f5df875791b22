import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { App } from '../app/app';
import type { BackendEvent } from '../backend/ferry-backend';
import { createScriptedBackend, type ScriptedBackend } from './scripted-backend';

/**
 * A manual clock for the UI: timers and the time of day move only when the test moves them. React
 * schedules its renders with `setImmediate`, which stays real, or nothing would ever render.
 */
export function useManualClock(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });
}

/** The whole UI on a scripted backend, once its first snapshot is on screen. */
export async function renderApp(backend: ScriptedBackend = createScriptedBackend(), link = '') {
  const user = userEvent.setup();
  render(<App backend={backend} link={link} />);
  await screen.findByRole('tablist');
  return { user, backend };
}

/** An update from the backend, applied the way React expects outside an event handler. */
export function push(backend: ScriptedBackend, event: BackendEvent): void {
  act(() => backend.emit(event));
}
