/** `count` bytes from the page's secure random source, which every context has. */
export function randomBytes(count: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(count));
}
