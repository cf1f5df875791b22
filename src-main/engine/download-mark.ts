import { execFile as execFileCallback } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile as writeWholeFile } from 'node:fs/promises';
import { errorMessage } from '../../src-shared/format/error-message';
import { QUARANTINE_WRITE_TIMEOUT_MS } from '../../src-shared/session/session-limits';

/** What a mark can say about where a received file came from. */
export interface MarkOrigin {
  /** When it landed, in milliseconds since the epoch. */
  receivedAt: number;
}

/**
 * Marks a received file as coming from another device, the way a browser marks a download, so
 * the system warns before running it: Windows' Mark of the Web, macOS's quarantine.
 */
export interface DownloadMark {
  mark(path: string, origin: MarkOrigin): Promise<void>;
}

/** What the marks need of the system; tests record these instead. */
export interface MarkSystem {
  platform: NodeJS.Platform;
  /** Writes `text` as the whole of `path`, creating it. */
  writeFile(path: string, text: string): Promise<void>;
  /** Runs `file` with `args`, without a shell. */
  execFile(file: string, args: readonly string[]): Promise<void>;
}

/**
 * The Windows zone record: zone 3 is the Internet, which is what makes Explorer and Office warn.
 * Ferry has no address the file came from; `about:internet` is what Windows itself writes then.
 */
export const ZONE_IDENTIFIER_TEXT = '[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=about:internet\r\n';

/** The name Gatekeeper shows as the program that brought the file. */
const QUARANTINE_AGENT = 'Ferry';

// 0x0001 = the file is quarantined; 0x0080 = it came from somewhere the person did not choose to
// trust (as Safari marks a download), so Gatekeeper checks it on first open.
const QUARANTINE_FLAGS = '0081';

const nodeSystem: MarkSystem = {
  platform: process.platform,
  writeFile: (path, text) => writeWholeFile(path, text),
  execFile: (file, args) =>
    new Promise<void>((resolve, reject) => {
      execFileCallback(file, args, { timeout: QUARANTINE_WRITE_TIMEOUT_MS }, (error) =>
        error === null ? resolve() : reject(error),
      );
    }),
};

/**
 * This platform's download mark: Windows writes the `Zone.Identifier` alternate data stream,
 * macOS sets the `com.apple.quarantine` extended attribute (Node has no call for it, so through
 * `/usr/bin/xattr`), and elsewhere nothing, since Linux desktops keep no such mark.
 */
export function downloadMarkFor(system: Partial<MarkSystem> = {}): DownloadMark {
  const { platform, writeFile, execFile } = { ...nodeSystem, ...system };
  switch (platform) {
    case 'win32':
      return { mark: (path) => writeFile(`${path}:Zone.Identifier`, ZONE_IDENTIFIER_TEXT) };
    case 'darwin':
      return {
        // `path` is absolute, so xattr can never read it as an option.
        mark: (path, origin) =>
          execFile('/usr/bin/xattr', ['-w', 'com.apple.quarantine', quarantineValue(origin), path]),
      };
    default:
      return { mark: async () => undefined };
  }
}

/** `0081;<seconds since the epoch, hex>;Ferry;<event UUID>`, as macOS's own agents write it. */
function quarantineValue(origin: MarkOrigin): string {
  const seconds = Math.floor(origin.receivedAt / 1000).toString(16);
  return `${QUARANTINE_FLAGS};${seconds};${QUARANTINE_AGENT};${randomUUID().toUpperCase()}`;
}

/**
 * Marks each file as it gets its final name. A mark that fails only warns: the file arrived whole
 * and verified, and deleting it would lose the transfer over a label that some places cannot hold
 * at all (a FAT or exFAT stick has no streams or attributes; Windows keeps downloads there unmarked
 * too).
 */
export function markReceived(
  mark: DownloadMark,
  warn: (message: string) => void,
): (savedPath: string, name: string) => Promise<void> {
  return async (savedPath, name) => {
    try {
      await mark.mark(savedPath, { receivedAt: Date.now() });
    } catch (error) {
      const detail = errorMessage(error);
      warn(
        `${name} was saved, but could not be marked as coming from another device (${detail}), so your system may open it without its usual warning`,
      );
    }
  };
}
