import * as v from 'valibot';
import type { IceServerEntry } from '../signaling/http-api';

const URL_TEXT = v.pipe(v.string(), v.trim(), v.nonEmpty());

/**
 * One ICE server entry, as GET /api/turn-credentials and a relay provider's API answer it: `urls`
 * a string or an array of strings (docs/protocol.md, "Relay credentials").
 */
export const IceServerEntrySchema = v.object({
  urls: v.union([URL_TEXT, v.pipe(v.array(URL_TEXT), v.nonEmpty())]),
  username: v.optional(v.string()),
  credential: v.optional(v.string()),
}) satisfies v.GenericSchema<unknown, IceServerEntry>;

const ANY_LIST = v.array(v.unknown());

export interface IceServerReading {
  servers: IceServerEntry[];
  /** One line per entry left out, for a warning; empty when every entry was usable. */
  skipped: string[];
}

/**
 * The server's ICE list, entry by entry: a bad entry costs only its own route, so it is skipped
 * with a reason and the rest is kept. An empty array is an answer, not a fault: a LAN room wants
 * host candidates only (docs/protocol.md, "Relay credentials"). Undefined when the answer is not
 * a list at all.
 */
export function readIceServerList(body: unknown): IceServerReading | undefined {
  const list = v.safeParse(ANY_LIST, body);
  if (!list.success) return undefined;
  const servers: IceServerEntry[] = [];
  const skipped: string[] = [];
  list.output.forEach((item, index) => {
    const read = v.safeParse(IceServerEntrySchema, item);
    if (!read.success) {
      skipped.push(`entry ${index + 1}: ${read.issues[0].message}`);
      return;
    }
    const { urls, username, credential } = read.output;
    const entry: IceServerEntry = { urls };
    if (username !== undefined) entry.username = username;
    if (credential !== undefined) entry.credential = credential;
    servers.push(entry);
  });
  return { servers, skipped };
}
