/**
 * Short codes and the rooms they name. Asynchronous so that a shared store can stand behind it
 * when several servers share the codes.
 */
export interface CodeStore {
  /** Binds `code` to `roomId` until `expiresAt`, unless a live code already holds it. */
  claim(code: string, roomId: string, expiresAt: number): Promise<boolean>;
  /** The room of a live code; undefined for an unknown or lapsed one. */
  resolve(code: string): Promise<string | undefined>;
  /** Codes held, including lapsed ones the sweeper has not cleared yet. */
  count(): Promise<number>;
  /** Clears lapsed codes. */
  sweep(): Promise<void>;
}
