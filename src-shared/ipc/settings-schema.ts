import * as v from 'valibot';
import { AUTO_ACCEPT_MAX_BYTES_LIMIT } from '../devices/auto-accept';
import { DeviceNameSchema, HttpUrlSchema, PathSchema } from './value-schemas';

/** The desktop app's settings as stored in settings.json and sent over IPC. */
export const DesktopSettingsSchema = v.object({
  serverUrl: HttpUrlSchema,
  downloadFolder: PathSchema,
  /** Whether the receiver reports its byte count to the server's anonymous counter. */
  reportStats: v.boolean(),
  /** Whether finished transfers are kept in the history; turning it off clears the history. */
  keepHistory: v.boolean(),
  /**
   * "Confirm the words before any file moves", the command line's `--verify`: a sender holds
   * file data until its person says the words match, a receiver's Accept needs the same, and a
   * device that cannot show words is refused (docs/protocol.md, "Verification words").
   */
  confirmWords: v.boolean(),
  /** A remembered device's quick save takes batches of at most this many bytes unasked. */
  autoAcceptMaxBytes: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.maxValue(AUTO_ACCEPT_MAX_BYTES_LIMIT),
  ),
  /**
   * The desktop app's LAN room serves HTTPS, with a certificate of its own whose fingerprint it
   * shows (docs/architecture.md, "The LAN room over HTTPS"); off, plain HTTP. A page never hosts.
   */
  lanRoomHttps: v.boolean(),
  /**
   * The name this computer announces beside `device` (docs/protocol.md, "The name shown"), as the
   * person set it; absent, the computer's own name. Changed only through `renameSelf`.
   */
  deviceName: v.optional(DeviceNameSchema),
});

/** The settings are what their schema reads, so the two cannot drift apart. */
export type DesktopSettings = v.InferOutput<typeof DesktopSettingsSchema>;

/**
 * Reads settings field by field: a field that is missing or fails its schema takes its value from
 * `fallback`, so one bad field (a hand-edited file, an older version's value) never loses the
 * rest. Anything but an object reads as `fallback` whole.
 */
export function readSettings(stored: unknown, fallback: DesktopSettings): DesktopSettings {
  const { entries } = DesktopSettingsSchema;
  const fieldByField = v.object({
    serverUrl: v.fallback(entries.serverUrl, fallback.serverUrl),
    downloadFolder: v.fallback(entries.downloadFolder, fallback.downloadFolder),
    reportStats: v.fallback(entries.reportStats, fallback.reportStats),
    keepHistory: v.fallback(entries.keepHistory, fallback.keepHistory),
    confirmWords: v.fallback(entries.confirmWords, fallback.confirmWords),
    autoAcceptMaxBytes: v.fallback(entries.autoAcceptMaxBytes, fallback.autoAcceptMaxBytes),
    lanRoomHttps: v.fallback(entries.lanRoomHttps, fallback.lanRoomHttps),
    deviceName: v.fallback(entries.deviceName, fallback.deviceName),
  }) satisfies v.GenericSchema<unknown, DesktopSettings>;
  return v.parse(v.fallback(fieldByField, fallback), stored);
}
