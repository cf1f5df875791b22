import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { focusWasLost } from './rescue-focus';
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
  const list = useRef<HTMLUListElement>(null);
  const removedAt = useRef<number | undefined>(undefined);

  // The Remove button that had the focus is gone: the next one in its place takes it (the last
  // one after the last item); with nothing left the screen's heading does (send-screen.tsx).
  useEffect(() => {
    const at = removedAt.current;
    removedAt.current = undefined;
    if (at === undefined || !focusWasLost()) return;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [];
    buttons[Math.min(at, buttons.length - 1)]?.focus();
  }, [items]);

  if (items.length === 0) return <p className="hint">Nothing chosen yet.</p>;

  return (
    <div className="selection">
      <ul className="file-list" aria-label="Chosen files and folders" tabIndex={0} ref={list}>
        {items.map((item, index) => (
          <li key={item.id}>
            <span className="file-name">{item.name}</span>
            <span className="file-size">{detailOf(item)}</span>
            <button
              type="button"
              className="button button--quiet"
              aria-label={`Remove ${item.name}`}
              onClick={() => {
                removedAt.current = index;
                remove(item.id);
              }}
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
