import { asSentence } from '../format/as-sentence';
import { err, type IpcError, type IpcResult } from '../ipc/result';

/** What a browser does instead of something only the desktop app can do. */
export type BrowserInstead = 'asks-each-time' | 'no-lan-room' | 'downloads-only' | 'always-asks';

const INSTEAD: Record<BrowserInstead, string> = {
  'asks-each-time': 'The browser asks where to save each time you accept.',
  'no-lan-room': 'LAN rooms are hosted by the Ferry desktop app.',
  'downloads-only': 'The browser keeps received files in its downloads.',
  'always-asks':
    'This browser cannot save into a folder you choose, the only place it saves without asking.',
};

/** Which path the person did not choose, and what Ferry does only with chosen ones. */
export type UnchosenPath =
  | { kind: 'send'; path: string }
  | { kind: 'save'; folder: string }
  | { kind: 'open' }
  | { kind: 'reveal' };

/** Why main refused a request before any handler saw it. */
export type BadRequest = { kind: 'malformed'; channel: string } | { kind: 'untrusted-frame' };

/**
 * Every error a backend answers a request with, desktop or browser, and the one sentence the
 * person reads for it (docs/architecture.md, "The application core"). A code whose sentence
 * names something takes it as an argument; no other module writes a backend error's words.
 */
const SENTENCES = {
  /** A start, or a leave, while a transfer is running. */
  ERR_BUSY: () => 'A transfer is already running; finish or cancel it first.',
  /** `rememberPeer` when the transfer on screen did not verify the device on its other end. */
  ERR_NOT_VERIFIED: () => 'Only a device this transfer verified can be remembered.',
  /** A send pinned to a device this one no longer remembers. */
  ERR_NOT_REMEMBERED: () => 'That device is no longer remembered; send with a code instead.',
  /** A send to a nearby device that left, or that this program never saw (docs/architecture.md, "Nearby devices"). */
  ERR_DEVICE_GONE: (name: string) =>
    `${name} is no longer nearby; choose another device, or send with a code.`,
  /** A change to the remembered devices that cannot be made (a name taken, a device unknown). */
  ERR_DEVICE_LIST: (reason: string) => reason,
  /** An answer to an offer when no offer is on screen. */
  ERR_NO_OFFER: () => 'There is no offer to answer.',
  /** Accept while "Confirm the words" still waits for the person's comparison. */
  ERR_WORDS_NOT_COMPARED: () => 'Compare the words with the other device first, then accept.',
  /** An answer about the words when nothing asks about them. */
  ERR_NO_WORDS_QUESTION: () => 'Nothing is waiting for the words.',
  /** A change that lowers a guard, which the person did not confirm in main's own dialog. */
  ERR_CHANGE_NOT_CONFIRMED: () => 'Nothing was changed: you did not confirm it.',
  /** A drop that held no file or folder. */
  ERR_NOTHING_DROPPED: () => 'Only files and folders can be dropped here.',
  /** Files the person chose or dropped that the browser could not read. */
  ERR_FILES_UNREADABLE: (reason: string) => `The browser could not read those files (${reason}).`,
  /** A send naming an item this page no longer holds. */
  ERR_UNKNOWN_ITEM: (name: string) => `${name} is no longer available; choose it again.`,
  /** A send of an empty selection. */
  ERR_NOTHING_TO_SEND: () => 'Choose at least one file to send.',
  /** An empty text, or one over TEXT_MESSAGE_MAX_BYTES, is not sent as a text message. */
  ERR_TEXT_REFUSED: (problem: string) => asSentence(problem),
  /** A folder to save into, chosen in a browser that cannot write to one. */
  ERR_NO_FOLDER_ACCESS: (reason: string) => `This browser cannot save into a folder (${reason}).`,
  /** The desktop window lost its line to the app's main process. */
  ERR_BRIDGE: (reason: string) =>
    `Ferry's window lost touch with the app (${reason}); restart Ferry.`,
  /** Something only the desktop app does, asked of the browser. */
  ERR_NOT_IN_BROWSER: (instead: BrowserInstead) => INSTEAD[instead],
  /** A path the window named that main never handed out (docs/architecture.md). */
  ERR_PATH_NOT_CHOSEN: (unchosen: UnchosenPath) => {
    switch (unchosen.kind) {
      case 'send':
        return `Ferry sends only files you chose or dropped, and ${unchosen.path} was not one of them.`;
      case 'save':
        return `Ferry saves only into a folder you chose, and ${unchosen.folder} was not one of them.`;
      case 'open':
        return 'Ferry opens only a folder a finished transfer saved into.';
      case 'reveal':
        return 'Ferry shows only the files a finished transfer saved.';
    }
  },
  /** A request main does not take: malformed for its channel, or from a frame not Ferry's own. */
  ERR_BAD_REQUEST: (bad: BadRequest) =>
    bad.kind === 'malformed'
      ? `The ${bad.channel} request was malformed.`
      : 'Request from an untrusted frame.',
  /** A request on a channel the IPC contract does not name. */
  ERR_UNKNOWN_CHANNEL: (channel: string) => `No such request: ${channel}.`,
  /** A handler failed in a way nobody planned for; the details go to the log. */
  ERR_INTERNAL: () => 'Something went wrong inside Ferry; see its log for details.',
} satisfies Record<string, (argument: never) => string>;

export type AppErrorCode = keyof typeof SENTENCES;

type ArgumentOf<C extends AppErrorCode> = Parameters<(typeof SENTENCES)[C]>;

/** The error `code`, with its sentence. */
export function appError<C extends AppErrorCode>(code: C, ...argument: ArgumentOf<C>): IpcError {
  const sentence = SENTENCES[code] as (...given: ArgumentOf<C>) => string;
  return { code, message: sentence(...argument) };
}

/** A request refused with `code` and its sentence, as a result value. */
export function refused<C extends AppErrorCode>(
  code: C,
  ...argument: ArgumentOf<C>
): IpcResult<never> {
  const { message } = appError(code, ...argument);
  return err(code, message);
}
