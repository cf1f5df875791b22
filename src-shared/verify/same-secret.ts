/**
 * Whether two secret-derived strings (a commitment, a link proof) are equal, in time that depends
 * only on their lengths, so that how long a refusal takes tells nothing of how much matched.
 * Every such comparison goes through here; lint refuses `===` and `!==` on them
 * (eslint.config.js, "secret comparisons").
 */
export function sameSecret(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  // A length that differs is known to both sides anyway: every proof and commitment is 64 hex.
  let difference = a.length ^ b.length;
  for (let at = 0; at < length; at += 1) {
    difference |= (a.charCodeAt(at) | 0) ^ (b.charCodeAt(at) | 0);
  }
  return difference === 0;
}
