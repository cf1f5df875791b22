import { useStore } from 'zustand';
import { asSentence } from '../../src-shared/format/as-sentence';
import { useFerryStores } from '../stores/stores-context';

/** The last failed action, in a live region that is always present so the change is announced. */
export function NoticeBar() {
  const { notice } = useFerryStores();
  const current = useStore(notice, (state) => state.notice);
  const clear = useStore(notice, (state) => state.clear);
  return (
    <div className="notice-region" role="status">
      {current && (
        <div className="notice">
          <p>{asSentence(current.message)}</p>
          <button type="button" className="button button--quiet" onClick={clear}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
