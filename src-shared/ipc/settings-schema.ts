import * as v from 'valibot';
import type { DesktopSettings } from './contract';
import { HttpUrlSchema, PathSchema } from './value-schemas';

/** The desktop app's settings as stored in settings.json and sent over IPC. */
export const DesktopSettingsSchema = v.object({
  serverUrl: HttpUrlSchema,
  downloadFolder: PathSchema,
  reportStats: v.boolean(),
  keepHistory: v.boolean(),
}) satisfies v.GenericSchema<unknown, DesktopSettings>;

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
  }) satisfies v.GenericSchema<unknown, DesktopSettings>;
  return v.parse(v.fallback(fieldByField, fallback), stored);
}
