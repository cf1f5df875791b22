/**
 * The command a sender prints for its receiver. The key is joined with `=`: about one key in 64
 * starts with `-`, which `--key KEY` would read as another option (issue 33, "Key bug").
 */
export function receiveCommandLine(code: string, key: string | undefined): string {
  return `ferry receive ${code}${key === undefined ? '' : ` --key=${key}`}`;
}
