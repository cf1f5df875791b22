import { rememberedDeviceLine, type PeerCheck } from '../../src-shared/transfer/transfer-view';
import { wordsDecision } from '../../src-shared/verify/confirm-words';
import type { CliIo } from './cli-io';

const YES = /^\s*y(es)?\s*$/i;

/** The one line each side prints before file data moves (docs/protocol.md, "Verification words"). */
export function verifyLine(check: PeerCheck): string {
  if (check.kind === 'link') return 'Verify: verified automatically by the secret link';
  if (check.kind === 'device') return `Verify: ${rememberedDeviceLine(check.name)}`;
  return check.kind === 'words'
    ? `Verify: ${check.words} (check the other device shows the same words)`
    : 'Verify: not available — the other device was not verified';
}

/** With `--verify`: asked once the words are shown, before any file data moves. */
export const WORDS_QUESTION = 'Do the words match on the other device? [y/N] ';

/** Prints the Verify line once, from whichever path learns the check first. */
export function verifyLinePrinter(io: CliIo): (check: PeerCheck) => void {
  let printed = false;
  return (check) => {
    if (printed) return;
    printed = true;
    io.out.write(`${verifyLine(check)}\n`);
  };
}

/**
 * `--verify`: whether the person confirms the words. A device that cannot show words cannot be
 * confirmed, so that answer is no, without asking; no input at all is no as well.
 */
export async function confirmWords(check: PeerCheck, io: CliIo): Promise<boolean> {
  const decision = wordsDecision(check);
  if (decision === 'confirmed') return true;
  if (decision === 'refused') {
    io.out.write(
      'Stopped: --verify needs verification words, and the other device cannot show them.\n',
    );
    return false;
  }
  const answer = await io.ask(WORDS_QUESTION);
  if (answer !== null && YES.test(answer)) return true;
  io.out.write('Stopped: the words were not confirmed, so no file data moved.\n');
  return false;
}
