/**
 * A received text message as the terminal prints it: line breaks and tabs kept, every other
 * control character (escape sequences, OSC 8 hyperlinks, a bare carriage return) replaced, so the
 * text can neither drive the terminal nor become a link.
 */
export function shownText(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/\n$/, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}
