import { useEffect, type RefObject } from 'react';

/** Whether the keyboard's place was lost: the focused element went away and nothing has it. */
export function focusWasLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * Gives `target` the focus when it appears (and whenever `when` changes) if the focus was lost,
 * as after a dialog, a removed item or a screen that replaced the one in use; a focus the person
 * placed elsewhere is left alone.
 */
export function useRescueFocus(target: RefObject<HTMLElement | null>, when: unknown = null): void {
  useEffect(() => {
    if (focusWasLost()) target.current?.focus();
  }, [target, when]);
}
