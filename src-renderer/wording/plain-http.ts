import type { PlainHttpLimit } from '../backend/ferry-backend';

/** What the browser does not let the page do, said of the page itself. */
const WITHHELD: Record<PlainHttpLimit, string> = {
  'choose-folder': 'save into a folder you choose',
  'stream-downloads': 'stream downloads to disk as they arrive',
  notify: 'notify you while it is out of sight',
};

/** What lifts them: a secure origin may (a phone's browser has no folder picker even then). */
const WAY_OUT = 'Opened over https or from localhost it may; the Ferry desktop app always can.';

/**
 * The one sentence a page opened over plain HTTP says of `limits` (docs/architecture.md, "Pages
 * on plain HTTP"): the page's own limit and what would lift it, never a fault of the other
 * device. Undefined when there is nothing to say.
 */
export function plainHttpSentence(limits: readonly PlainHttpLimit[]): string | undefined {
  if (limits.length === 0) return undefined;
  const withheld = limits.map((limit) => WITHHELD[limit]).join(', nor ');
  return `This page was opened over plain HTTP, so the browser does not let it ${withheld}. ${WAY_OUT}`;
}

/** The limits that bear on where received files go, said where the person accepts them. */
export const SAVING_LIMITS: readonly PlainHttpLimit[] = ['choose-folder', 'stream-downloads'];
