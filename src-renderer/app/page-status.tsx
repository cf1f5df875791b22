import { useEffect } from 'react';
import { useStore } from 'zustand';
import { isUnderWay, progressFraction } from '../../src-shared/transfer/progress-fraction';
import { useFerryStores } from '../stores/stores-context';

export const APP_TITLE = 'Ferry';

/** The page's title: the progress in front while files move, so a background tab shows it. */
export function pageTitle(fraction: number | undefined, direction: 'send' | 'receive'): string {
  if (fraction === undefined) return APP_TITLE;
  const verb = direction === 'send' ? 'Sending' : 'Receiving';
  return `${Math.floor(fraction * 100)}% ${verb} — ${APP_TITLE}`;
}

/**
 * What the page says about the transfer outside its own content: the progress in the tab's (or
 * window's) title, and in a browser a warning before a reload or a closed tab ends a transfer
 * under way. The desktop app's window is main's to keep open; it shows the taskbar progress.
 */
export function PageStatus() {
  const { backend, transfer } = useFerryStores();
  const view = useStore(transfer, (state) => state.view);
  const fraction = progressFraction(view);
  const direction = view.phase === 'idle' ? 'send' : view.direction;
  const title = pageTitle(fraction, direction);
  const underWay = isUnderWay(view);

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    if (!underWay || backend.surface !== 'browser') return undefined;
    const warn = (event: BeforeUnloadEvent): void => {
      // Browsers show their own words; asking is all a page can do.
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [underWay, backend.surface]);

  return null;
}
