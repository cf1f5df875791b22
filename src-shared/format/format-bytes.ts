const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;
/** Decimal steps, as GNOME Files and Finder count. */
const STEP = 1000;

/**
 * A size as a file manager shows it: decimal units (1,200,000 B is "1.2 MB"), whole bytes below
 * a kilobyte, one decimal above, as GNOME Files writes them.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  if (bytes < STEP) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = 0;
  // Rounding to one decimal may reach the next unit (999,999 B is 1.0 MB, never "1000.0 kB").
  while (Math.round(value * 10) / 10 >= STEP && unit < UNITS.length - 1) {
    value /= STEP;
    unit += 1;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** A megabyte as `formatBytes` counts it, for a field a person fills in MB. */
export const MEGABYTE_BYTES = STEP * STEP;
