import { DISPLAYED_REASON_MAX_CHARS } from './limits';

/**
 * A peer's abort reason as this side shows it: at most 300 characters (code points, so an emoji
 * is never split), with control characters replaced so the text cannot drive a terminal.
 */
export function displayReason(reason: string): string {
  let shown = '';
  let count = 0;
  for (const codePoint of reason) {
    if (count === DISPLAYED_REASON_MAX_CHARS) break;
    shown += isControl(codePoint.codePointAt(0) ?? 0) ? '\ufffd' : codePoint;
    count += 1;
  }
  return shown;
}

/** C0 controls, DEL and C1 controls: in a terminal they are commands, not text. */
function isControl(codePoint: number): boolean {
  return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f);
}
