import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { isUnderWay, progressFraction } from '../../src-shared/transfer/progress-fraction';
import { transferNotice } from '../../src-shared/transfer/transfer-notice';
import { notifyIfAway } from '../page/browser-notices';
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
 * window's) title, and in a browser a notification of an offer or a finished transfer while the
 * page is out of sight, and a warning before a reload or a closed tab ends a transfer under way.
 * The desktop app's main process keeps its window, the taskbar progress and its notifications.
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

  // The desktop app's main process notifies for its window; a page notifies for itself.
  const shown = useRef(view);
  useEffect(() => {
    const notice = transferNotice(shown.current, view);
    shown.current = view;
    if (notice !== undefined && backend.surface === 'browser') notifyIfAway(notice);
  }, [view, backend.surface]);

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
