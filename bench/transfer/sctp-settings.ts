// `--sctp '<json>'` of the bench's peer scripts: node-datachannel's process-wide SCTP settings,
// checked field by field so a typo fails the run instead of silently measuring the defaults.
import type { SctpSettings } from 'node-datachannel';

const SCTP_KEYS = [
  'recvBufferSize',
  'sendBufferSize',
  'maxChunksOnQueue',
  'initialCongestionWindow',
  'congestionControlModule',
  'delayedSackTime',
] as const satisfies readonly (keyof SctpSettings)[];

type SctpKey = (typeof SCTP_KEYS)[number];

function isSctpKey(key: string): key is SctpKey {
  return (SCTP_KEYS as readonly string[]).includes(key);
}

/**
 * Parses `json` into SctpSettings: an object whose keys are SctpSettings fields and whose values
 * are whole numbers ≥ 0. `{}` is valid and means libdatachannel's own defaults.
 */
export function parseSctpSettings(json: string): SctpSettings {
  const value: unknown = JSON.parse(json);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`--sctp must be a JSON object, not ${json}`);
  }
  const settings: SctpSettings = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!isSctpKey(key)) {
      throw new Error(`--sctp: unknown setting "${key}" (known: ${SCTP_KEYS.join(', ')})`);
    }
    if (typeof entry !== 'number' || !Number.isSafeInteger(entry) || entry < 0) {
      throw new Error(`--sctp: ${key} must be a whole number ≥ 0, not ${JSON.stringify(entry)}`);
    }
    settings[key] = entry;
  }
  return settings;
}
