// Runtime checks for payloads arriving over IPC: the renderer is never trusted.
export type Guard<T> = (input: unknown) => input is T;

export const isRecord = (input: unknown): input is Record<string, unknown> =>
  typeof input === 'object' && input !== null && !Array.isArray(input);

const MAX_PATH_LENGTH = 4096;
const MAX_PATHS = 10_000;

export const isPath = (input: unknown): input is string =>
  typeof input === 'string' &&
  input.length > 0 &&
  input.length <= MAX_PATH_LENGTH &&
  !input.includes('\0');

export const isPathList = (input: unknown): input is string[] =>
  Array.isArray(input) && input.length > 0 && input.length <= MAX_PATHS && input.every(isPath);

/** An object with exactly the listed keys, each passing its check (optional keys may be absent). */
export function hasShape<T>(
  required: Record<string, Guard<unknown>>,
  optional: Record<string, Guard<unknown>> = {},
): Guard<T> {
  return (input: unknown): input is T => {
    if (!isRecord(input)) return false;
    for (const key of Object.keys(input)) {
      if (!(key in required) && !(key in optional)) return false;
    }
    for (const [key, check] of Object.entries(required)) {
      if (!check(input[key])) return false;
    }
    for (const [key, check] of Object.entries(optional)) {
      if (input[key] !== undefined && !check(input[key])) return false;
    }
    return true;
  };
}

export const isBoolean = (input: unknown): input is boolean => typeof input === 'boolean';

export const isShortText =
  (maxLength: number): Guard<string> =>
  (input: unknown): input is string =>
    typeof input === 'string' && input.length <= maxLength;

export const isHttpUrl = (input: unknown): input is string => {
  if (typeof input !== 'string' || input.length > 2048) return false;
  try {
    const url = new URL(input);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};
