import type { CodeOutcome } from '../../../src-shared/signaling/http-api';

/** What a claim on a code came to. */
export type Claim = 'claimed' | 'taken' | 'full';

/** A live code: its room, and how it ended once its sender released it. */
export interface HeldCode {
  roomId: string;
  outcome?: CodeOutcome;
}

/**
 * Short codes and the rooms they name. Asynchronous because in a cluster the codes live in Redis,
 * shared by every server.
 */
export interface CodeStore {
  /**
   * Binds `code` to `roomId` until `expiresAt`: `taken` when a live code already holds it, `full`
   * when `capacity` codes are held (lapsed ones the sweeper has not cleared yet may count).
   */
  claim(code: string, roomId: string, expiresAt: number, capacity: number): Promise<Claim>;
  /** A live code; undefined for an unknown or lapsed one. */
  resolve(code: string): Promise<HeldCode | undefined>;
  /**
   * Records how a live code of `roomId` ended, for the rest of its lifetime: false when no live
   * code names that room (unknown, lapsed, or another room's), which changes nothing.
   */
  release(code: string, roomId: string, outcome: CodeOutcome): Promise<boolean>;
  /** Clears lapsed codes. */
  sweep(): Promise<void>;
}
