/**
 * Puts `text` on the clipboard, and resolves whether it got there; it never rejects or throws.
 * The clipboard API comes first; a page opened over plain HTTP has none, and a browser may
 * refuse it, so a selection copy follows (docs/architecture.md, "Pages on plain HTTP"). False
 * means neither worked, and the caller says what the person can do instead.
 */
export async function copyText(text: string): Promise<boolean> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (typeof clipboard?.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, the page out of focus): the selection copy may still be allowed.
    }
  }
  return copyBySelection(text);
}

/**
 * The copy that predates the clipboard API: `text` in an off-screen field, selected and copied
 * with `execCommand`, then the focus and selection the person had are put back.
 */
function copyBySelection(text: string): boolean {
  if (typeof document === 'undefined' || typeof document.execCommand !== 'function') return false;
  const focused = document.activeElement;
  const selection = document.getSelection();
  const ranges =
    selection === null
      ? []
      : Array.from({ length: selection.rangeCount }, (_, index) => selection.getRangeAt(index));
  const field = document.createElement('textarea');
  field.value = text;
  // Read-only keeps a phone's keyboard down; 12pt keeps iOS from zooming into the field.
  field.setAttribute('readonly', '');
  field.setAttribute('aria-hidden', 'true');
  field.style.cssText = 'position:fixed;top:0;left:-9999px;font-size:12pt;opacity:0';
  document.body.append(field);
  try {
    field.focus({ preventScroll: true });
    field.select();
    field.setSelectionRange(0, text.length);
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
    if (focused instanceof HTMLElement) focused.focus({ preventScroll: true });
    if (selection !== null) {
      selection.removeAllRanges();
      for (const range of ranges) selection.addRange(range);
    }
  }
}
