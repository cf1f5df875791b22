const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `1GiB`, `256MiB`, `512m`, `1048576`: a byte count, binary units. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined)
    throw new Error(`--size ${text}: use a number with B, KiB, MiB or GiB`);
  return Math.round(Number(match[1]) * unit);
}
