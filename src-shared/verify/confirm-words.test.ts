import { describe, expect, it } from 'vitest';
import type { TransferView } from '../transfer/transfer-view';
import { WordsQuestion, wordsDecision } from './confirm-words';

const WORDS = { kind: 'words', words: 'plum otter cask' } as const;
const WAITING: TransferView = {
  phase: 'waiting-for-acceptance',
  direction: 'send',
  code: 'acid-otter-plank',
  peerCheck: WORDS,
};

describe('what "Confirm the words" makes of a peer check', () => {
  it('asks about words, refuses a device without any, and lets the link or a remembered device by', () => {
    expect(wordsDecision(WORDS)).toBe('ask');
    expect(wordsDecision({ kind: 'unverified' })).toBe('refused');
    expect(wordsDecision({ kind: 'link' })).toBe('confirmed');
    expect(wordsDecision({ kind: 'device', name: 'Laptop', fingerprint: 'sha-256 AB' })).toBe(
      'confirmed',
    );
  });
});

describe('the words question', () => {
  it('waits for the person, and shows the view as asking only until they answer', async () => {
    const question = new WordsQuestion();
    const heard: string[] = [];
    const answer = question.ask(WORDS, {
      asked: () => heard.push('asked'),
      refused: () => heard.push('refused'),
    });
    expect(heard).toEqual(['asked']);
    expect(question.shown(WAITING)).toEqual({ ...WAITING, wordsAsked: true });
    expect(question.shown({ phase: 'idle' })).toEqual({ phase: 'idle' });

    expect(question.answer(false)).toBe(true);
    expect(await answer).toBe(false);
    expect(question.shown({ ...WAITING, wordsAsked: true })).toEqual(WAITING);
    expect(question.answer(true)).toBe(false);
  });

  it('settles at once where there is nothing to compare, and says so of a refusal', async () => {
    const question = new WordsQuestion();
    const heard: string[] = [];
    const on = { asked: () => heard.push('asked'), refused: () => heard.push('refused') };
    expect(await question.ask({ kind: 'link' }, on)).toBe(true);
    expect(await question.ask({ kind: 'unverified' }, on)).toBe(false);
    expect(heard).toEqual(['refused']);
    expect(question.pending).toBe(false);
  });
});
