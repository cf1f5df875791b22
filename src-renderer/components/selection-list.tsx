import { useStore } from 'zustand';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { useFerryStores } from '../stores/stores-context';
import type { SelectedItem } from '../backend/ferry-backend';
import { selectionBytes, selectionFiles } from '../stores/selection-store';
import { countOf } from '../../src-shared/format/count-of';

const detailOf = (item: SelectedItem): string =>
  item.isDirectory
    ? `Folder, ${countOf(item.fileCount, 'file')}, ${formatBytes(item.size)}`
    : formatBytes(item.size);

/** What will be sent: each item with its size and a Remove button, then the total. */
export function SelectionList() {
  const { selection } = useFerryStores();
  const items = useStore(selection, (state) => state.items);
  const remove = useStore(selection, (state) => state.remove);

  if (items.length === 0) return <p className="hint">Nothing chosen yet.</p>;

  return (
    <div className="selection">
      <ul className="file-list" aria-label="Chosen files and folders">
        {items.map((item) => (
          <li key={item.id}>
            <span className="file-name">{item.name}</span>
            <span className="file-size">{detailOf(item)}</span>
            <button
              type="button"
              className="button button--quiet"
              aria-label={`Remove ${item.name}`}
              onClick={() => remove(item.id)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <p className="selection-total">
        Total: {countOf(selectionFiles(items), 'file')}, {formatBytes(selectionBytes(items))}
      </p>
    </div>
  );
}
