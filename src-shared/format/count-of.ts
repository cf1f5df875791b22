/** "1 file", "2 files", "1,204 files": a number with its noun in the right number. */
export function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : `${noun}s`}`;
}
