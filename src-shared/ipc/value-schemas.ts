import * as v from 'valibot';
import { cleanDeviceName } from '../devices/device-name';

// The values that cross IPC and land in settings: the renderer is never trusted, and a settings
// file may have been edited by hand.

/** The longest path or list IPC carries; well past any real file system's limit. */
export const MAX_PATH_LENGTH = 4096;
export const MAX_PATHS = 10_000;
export const MAX_URL_LENGTH = 2048;

export const PathSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(MAX_PATH_LENGTH),
  v.check((path) => !path.includes('\0'), 'a path may not contain NUL'),
);

export const PathListSchema = v.pipe(v.array(PathSchema), v.minLength(1), v.maxLength(MAX_PATHS));

export const HttpUrlSchema = v.pipe(
  v.string(),
  v.maxLength(MAX_URL_LENGTH),
  v.url(),
  v.check((url) => /^https?:$/.test(new URL(url).protocol), 'only http and https links'),
);

/** A typed device name before cleaning (devices/device-name.ts): bounded, never trusted. */
export const MAX_DEVICE_NAME_INPUT = 1000;
export const DeviceNameInputSchema = v.pipe(v.string(), v.maxLength(MAX_DEVICE_NAME_INPUT));

/** A device name as kept: already what cleanDeviceName makes of it, and not empty. */
export const DeviceNameSchema = v.pipe(
  v.string(),
  v.check((name) => name !== '' && cleanDeviceName(name) === name, 'not a cleaned device name'),
);

/** A certificate fingerprint as the renderer was shown it: `sha-256 AB:CD:…`. */
export const FingerprintSchema = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9-]{1,32} [0-9A-F]{2}(?::[0-9A-F]{2}){15,63}$/, 'not a certificate fingerprint'),
);
