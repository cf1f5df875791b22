import { NOTIFY_REASON } from '../page/browser-notices';
import { useFerryStores } from '../stores/stores-context';

/** The reason, on a page whose browser has not been asked yet. */
export function NotifyReason() {
  const { backend } = useFerryStores();
  if (backend.surface !== 'browser') return null;
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return null;
  return (
    <p className="hint" data-testid="notify-reason">
      {NOTIFY_REASON}
    </p>
  );
}
