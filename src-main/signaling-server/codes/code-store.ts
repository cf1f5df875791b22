/** What a claim on a code came to. */
export type Claim = 'claimed' | 'taken' | 'full';

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
  /** The room of a live code; undefined for an unknown or lapsed one. */
  resolve(code: string): Promise<string | undefined>;
  /** Clears lapsed codes. */
  sweep(): Promise<void>;
}
