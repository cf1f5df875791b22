import type { PeerCheck, TransferView } from '../transfer/transfer-view';

/**
 * What "Confirm the words before any file moves" (the command line's `--verify`) makes of a peer
 * check (docs/protocol.md, "Verification words"): nothing left to compare (both sides proved the
 * secret link, or the device was remembered once it was verified), words the person must
 * compare, or a device that cannot show words and so cannot be confirmed at all.
 */
export type WordsDecision = 'confirmed' | 'ask' | 'refused';

export function wordsDecision(check: PeerCheck): WordsDecision {
  if (check.kind === 'link' || check.kind === 'device') return 'confirmed';
  return check.kind === 'words' ? 'ask' : 'refused';
}

/**
 * The sending person's one answer to "do the words match?", asked by the session through its
 * `confirmPeer` before any file data leaves. Every surface's sender holds one: the desktop app
 * answers it from the window, the web client from its page.
 */
export class WordsQuestion {
  #answer: ((match: boolean) => void) | undefined;

  /**
   * The session's `confirmPeer`: settles at once when there is nothing to ask (`refused` hears
   * of a device that cannot show words), otherwise calls `asked` and waits for `answer`.
   */
  ask(check: PeerCheck, on: { asked(): void; refused(): void }): Promise<boolean> {
    const decision = wordsDecision(check);
    if (decision === 'refused') on.refused();
    if (decision !== 'ask') return Promise.resolve(decision === 'confirmed');
    return new Promise<boolean>((resolve) => {
      this.#answer = resolve;
      on.asked();
    });
  }

  get pending(): boolean {
    return this.#answer !== undefined;
  }

  /**
   * `view` as the person sees it: while the question is open, a waiting sender's or an asked
   * receiver's view says so (`wordsAsked`), whichever view the session sent last.
   */
  shown(view: TransferView): TransferView {
    if (view.phase !== 'waiting-for-acceptance' && view.phase !== 'awaiting-acceptance') {
      return view;
    }
    const { wordsAsked: _asked, ...unasked } = view;
    return this.pending ? { ...unasked, wordsAsked: true } : unasked;
  }

  /** The person's answer; false when nothing was being asked. */
  answer(match: boolean): boolean {
    const answer = this.#answer;
    if (answer === undefined) return false;
    this.#answer = undefined;
    answer(match);
    return true;
  }
}

/** Every surface's sentence when "Confirm the words" meets a device that cannot show words. */
export const WORDS_UNAVAILABLE =
  'Stopped before any file data moved: “Confirm the words” is on, and the other device cannot show verification words.';
