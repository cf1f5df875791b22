import { useEffect, type RefObject } from 'react';

/** Whether the keyboard's place was lost: the focused element went away and nothing has it. */
export function focusWasLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * Whether the person has used this document yet: pressed a key or a pointer in it. Before that,
 * the screen is what the page opened on: focus stays at the top, so the tabs come first in order.
 * The browser's own `navigator.userActivation.hasBeenActive` cannot tell: Chromium carries it over
 * from the navigation that opened the page (typing its address counts), so it reads true on load.
 */
let used = false;
function noteUse(): void {
  used = true;
}
if (typeof document !== 'undefined') {
  for (const kind of ['pointerdown', 'keydown'] as const) {
    document.addEventListener(kind, noteUse, { capture: true, once: true });
  }
}

export function pageUsed(): boolean {
  return used;
}

/**
 * Gives `target` the focus when it appears (and whenever `when` changes) if the focus was lost,
 * as after a dialog, a removed item or a screen that replaced the one in use; a focus the person
 * placed elsewhere is left alone, and so is a page not used yet.
 */
export function useRescueFocus(target: RefObject<HTMLElement | null>, when: unknown = null): void {
  useEffect(() => {
    if (focusWasLost() && pageUsed()) target.current?.focus();
  }, [target, when]);
}
