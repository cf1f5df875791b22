// Reading typed values out of environment variables, for the entry points of the server programs.

/** A configuration value a program cannot start with; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type Environment = Record<string, string | undefined>;

/** The trimmed value; an empty variable (`FOO=` in a compose file) means unset, not zero. */
export function envText(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function envWhole(
  env: Environment,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const value = envText(env, name);
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return number;
}

export function envUrl(
  env: Environment,
  name: string,
  protocols: readonly string[],
): string | undefined {
  const value = envText(env, name);
  if (value === undefined) return undefined;
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new ConfigError(`${name} must be a URL, not "${value}"`);
  }
  if (!protocols.includes(protocol)) {
    throw new ConfigError(`${name} must be a ${protocols.join(' or ')} URL, not "${value}"`);
  }
  return value;
}

/** A yes-or-no setting: 1 or true, 0 or false; undefined when unset or empty, which means no. */
export function envFlag(env: Environment, name: string): boolean | undefined {
  const value = envText(env, name);
  if (value === undefined) return undefined;
  if (value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be 1, true, 0 or false, not "${value}"`);
}
