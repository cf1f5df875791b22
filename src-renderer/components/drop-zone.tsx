import { useId, useRef, useState, type DragEvent } from 'react';
import { useStore } from 'zustand';
import { useFerryStores } from '../stores/stores-context';

const carriesFiles = (event: DragEvent): boolean => event.dataTransfer.types.includes('Files');

/** Where files and folders are dropped or chosen; the buttons are the keyboard's way in. */
export function DropZone() {
  const { selection } = useFerryStores();
  const pending = useStore(selection, (state) => state.pending);
  const { addDropped, pickFiles, pickFolder } = selection.getState();
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed, so count them instead of toggling.
  const depth = useRef(0);
  const labelId = useId();

  function enter(event: DragEvent): void {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  }

  function over(event: DragEvent): void {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }

  function leave(): void {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  }

  function drop(event: DragEvent): void {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    void addDropped(event.dataTransfer);
  }

  return (
    <div
      className={dragging ? 'drop-zone drop-zone--active' : 'drop-zone'}
      data-testid="drop-zone"
      role="group"
      aria-labelledby={labelId}
      onDragEnter={enter}
      onDragOver={over}
      onDragLeave={leave}
      onDrop={drop}
    >
      <p id={labelId} className="drop-zone-label">
        {dragging ? 'Drop to add' : 'Drop files or folders here'}
      </p>
      <div className="actions">
        {/* aria-disabled, not disabled: a disabled button drops the focus, and the keyboard
            would land on the page itself once the picker closes. */}
        <button
          type="button"
          className="button"
          aria-disabled={pending}
          onClick={() => void (pending || pickFiles())}
        >
          Choose files
        </button>
        <button
          type="button"
          className="button"
          aria-disabled={pending}
          onClick={() => void (pending || pickFolder())}
        >
          Choose folder
        </button>
      </div>
    </div>
  );
}
