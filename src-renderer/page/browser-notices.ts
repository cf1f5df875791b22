import type { TransferNotice } from '../../src-shared/transfer/transfer-notice';

/** Said before a browser asks for leave to notify (askToNotify), so its question has a reason. */
export const NOTIFY_REASON =
  'Your browser will ask whether Ferry may notify you, so you hear when a transfer ends while this tab is in the background.';

/**
 * Asks once for leave to notify, at the moment the person starts a transfer (a click, which is
 * when browsers let a page ask); a browser without notifications, or an answer given before,
 * asks nothing.
 */
export function askToNotify(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

/** Shows `notice` when the page is out of sight and the person allowed it; a click brings it up. */
export function notifyIfAway(notice: TransferNotice): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (document.visibilityState === 'visible' && document.hasFocus()) return;
  const shown = new Notification(notice.title, { body: notice.body });
  shown.onclick = () => {
    window.focus();
    shown.close();
  };
}
