import {
  CODE_WORDS_AFTER_COLLISIONS,
  CODE_WORDS_PER_CODE,
  generateCode,
} from '../../../src-shared/codes/generate-code';
import { CODE_COLLISION_DRAWS, CODE_LIFETIME_MS } from '../../../src-shared/signaling/limits';
import type { Clock } from '../schedule';
import type { CodeOutcome } from '../../../src-shared/signaling/http-api';
import type { CodeStore, HeldCode } from './code-store';

export type Registration = { kind: 'registered'; code: string } | { kind: 'busy' };

/** A uniformly random integer in [0, exclusiveMax) from a cryptographically secure source. */
export type RandomIndex = (exclusiveMax: number) => number;

/**
 * Issues short codes for rooms: three words, drawn again while they collide with a live code,
 * four words after CODE_COLLISION_DRAWS collisions; each code resolves for CODE_LIFETIME_MS.
 */
export class CodeRegistrar {
  constructor(
    private readonly store: CodeStore,
    private readonly maxActiveCodes: number,
    private readonly randomIndex: RandomIndex,
    private readonly now: Clock,
  ) {}

  async register(roomId: string): Promise<Registration> {
    const expiresAt = this.now() + CODE_LIFETIME_MS;
    for (const wordCount of [CODE_WORDS_PER_CODE, CODE_WORDS_AFTER_COLLISIONS] as const) {
      for (let draw = 0; draw < CODE_COLLISION_DRAWS; draw += 1) {
        const code = generateCode(this.randomIndex, wordCount);
        // A global guard, checked with each claim so that it holds across a cluster too.
        const claim = await this.store.claim(code, roomId, expiresAt, this.maxActiveCodes);
        if (claim === 'full') return { kind: 'busy' };
        if (claim === 'claimed') return { kind: 'registered', code };
      }
    }
    // Ten four-word collisions in a row mean the random source is broken, not that codes ran out.
    throw new Error(
      `No free code after ${2 * CODE_COLLISION_DRAWS} draws; is the random source broken?`,
    );
  }

  resolve(code: string): Promise<HeldCode | undefined> {
    return this.store.resolve(code);
  }

  /** The sender's word on how its code ended (docs/protocol.md, "Dead codes"). */
  release(code: string, roomId: string, outcome: CodeOutcome): Promise<boolean> {
    return this.store.release(code, roomId, outcome);
  }

  sweep(): Promise<void> {
    return this.store.sweep();
  }
}
