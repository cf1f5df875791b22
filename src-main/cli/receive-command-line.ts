import { receiveFragment } from '../../src-shared/codes/receive-fragment';

/**
 * The command a sender prints for its receiver. The key is joined with `=`: about one key in 64
 * starts with `-`, which `--key KEY` would read as another option (issue 33, "Key bug").
 */
export function receiveCommandLine(code: string, key: string | undefined): string {
  return `ferry receive ${code}${key === undefined ? '' : ` --key=${key}`}`;
}

/**
 * The other way to receive, for a person without the command line: the words to type in
 * Ferry's app or web client, or, from a LAN room, which serves the web client at its own address,
 * the link that opens it with the code and key filled in (docs/protocol.md, "Secret link").
 */
export function browserReceiveLine(
  code: string,
  key: string | undefined,
  webClientUrl: string | undefined,
): string {
  if (webClientUrl === undefined) {
    return `Or in the Ferry app or its web page, choose Receive and type: ${code}`;
  }
  const link = new URL(webClientUrl);
  link.hash = receiveFragment(key === undefined ? { code } : { code, key });
  return `Or in a browser on this network, open: ${link.href}`;
}
