import * as v from 'valibot';
import { LinkSecretSchema } from '../verify/link-secret';
import { normalizeCode } from './normalize-code';
import { isCodeShape } from './validate-code';

/** What a receive link carries in its fragment, which browsers never send to a server. */
export interface ReceiveFragment {
  code: string;
  /** The secret link's secret (docs/protocol.md, "Secret link"); absent in an older link. */
  key?: string;
}

/** `receive=<code>`, or `receive=<code>&key=<secret>`: the part after a receive link's `#`. */
export function receiveFragment({ code, key }: ReceiveFragment): string {
  return key === undefined ? `receive=${code}` : `receive=${code}&key=${key}`;
}

const FRAGMENT = /^#?receive=([^&]+)(?:&key=([^&]*))?$/;

const FragmentSchema = v.object({
  code: v.pipe(
    v.string(),
    v.transform((typed) => normalizeCode(typed)),
    v.check(isCodeShape, 'not a code'),
  ),
  key: v.optional(LinkSecretSchema),
});

/**
 * The code and key of a receive link's fragment (with or without its `#`); null when it is not
 * one, or when it names a key that is not a secret: a damaged link is refused, not half used.
 */
export function readReceiveFragment(fragment: string): ReceiveFragment | null {
  const match = FRAGMENT.exec(fragment);
  if (!match) return null;
  let code: string;
  try {
    code = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  const reading = v.safeParse(FragmentSchema, {
    code,
    ...(match[2] === undefined ? {} : { key: match[2] }),
  });
  if (!reading.success) return null;
  const { key } = reading.output;
  return key === undefined ? { code: reading.output.code } : { code: reading.output.code, key };
}

/**
 * What a person gave as the code: a whole receive link (its fragment read) or the code itself.
 * Null for a link whose fragment is not a receive link's.
 */
export function readCodeOrLink(given: string): ReceiveFragment | null {
  const text = given.trim();
  const hash = text.indexOf('#');
  if (hash === -1) return { code: normalizeCode(text) };
  return readReceiveFragment(text.slice(hash));
}
