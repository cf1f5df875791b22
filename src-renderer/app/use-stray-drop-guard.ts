import { useEffect } from 'react';

/** Without this, a file dropped outside the drop zone replaces the whole window with that file. */
export function useStrayDropGuard(): void {
  useEffect(() => {
    function refuse(event: DragEvent): void {
      if (event.defaultPrevented) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    }
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);
}
