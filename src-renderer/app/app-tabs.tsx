import { useRef, type KeyboardEvent } from 'react';
import { useStore } from 'zustand';
import type { Screen } from '../stores/screen-store';
import { useFerryStores } from '../stores/stores-context';

export const PANEL_ID = 'ferry-panel';
export const tabId = (screen: Screen): string => `ferry-tab-${screen}`;

const LABELS: Record<Screen, string> = { send: 'Send', receive: 'Receive', settings: 'Settings' };

/**
 * Send, Receive and Settings as tabs (arrow keys move between them). While a transfer runs, the
 * other direction waits; once it has finished, switching leaves it.
 */
export function AppTabs() {
  const { backend, notice, screen, transfer } = useFerryStores();
  const current = useStore(screen, (state) => state.screen);
  const view = useStore(transfer, (state) => state.view);
  const tabs = useRef<Partial<Record<Screen, HTMLButtonElement | null>>>({});
  const screens: Screen[] = backend.capabilities.settings
    ? ['send', 'receive', 'settings']
    : ['send', 'receive'];
  const finished = view.phase === 'done' || view.phase === 'failed';

  const blocked = (target: Screen): boolean =>
    view.phase !== 'idle' && !finished && target !== 'settings' && target !== view.direction;

  function select(target: Screen): void {
    notice.getState().clear();
    if (finished && target !== 'settings' && target !== view.direction) {
      void transfer.getState().dismiss();
    }
    screen.getState().show(target);
  }

  function keyDown(event: KeyboardEvent<HTMLButtonElement>): void {
    const open = screens.filter((target) => !blocked(target));
    const at = open.indexOf(current);
    const next =
      event.key === 'ArrowRight'
        ? open[(at + 1) % open.length]
        : event.key === 'ArrowLeft'
          ? open[(at - 1 + open.length) % open.length]
          : event.key === 'Home'
            ? open[0]
            : event.key === 'End'
              ? open[open.length - 1]
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    select(next);
    tabs.current[next]?.focus();
  }

  return (
    <div className="tabs" role="tablist" aria-label="Ferry">
      {screens.map((target) => (
        <button
          key={target}
          ref={(element) => {
            tabs.current[target] = element;
          }}
          type="button"
          role="tab"
          id={tabId(target)}
          className="tab"
          aria-selected={current === target}
          aria-controls={PANEL_ID}
          tabIndex={current === target ? 0 : -1}
          disabled={blocked(target)}
          onClick={() => select(target)}
          onKeyDown={keyDown}
        >
          {LABELS[target]}
        </button>
      ))}
    </div>
  );
}
