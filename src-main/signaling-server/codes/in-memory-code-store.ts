import type { CodeOutcome } from '../../../src-shared/signaling/http-api';
import { sameRoomId } from '../../../src-shared/signaling/room-id';
import type { Clock } from '../schedule';
import type { Claim, CodeStore, HeldCode } from './code-store';

interface Entry extends HeldCode {
  expiresAt: number;
}

/** The codes of a single server: lapsed codes hold their slot until the once-a-minute sweep. */
export class InMemoryCodeStore implements CodeStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: Clock) {}

  async claim(code: string, roomId: string, expiresAt: number, capacity: number): Promise<Claim> {
    if (this.entries.size >= capacity) return 'full';
    const held = this.entries.get(code);
    if (held !== undefined && this.isLive(held)) return 'taken';
    this.entries.set(code, { roomId, expiresAt });
    return 'claimed';
  }

  async resolve(code: string): Promise<HeldCode | undefined> {
    const entry = this.entries.get(code);
    if (entry === undefined || !this.isLive(entry)) return undefined;
    return entry.outcome === undefined
      ? { roomId: entry.roomId }
      : { roomId: entry.roomId, outcome: entry.outcome };
  }

  async release(code: string, roomId: string, outcome: CodeOutcome): Promise<boolean> {
    const entry = this.entries.get(code);
    if (entry === undefined || !this.isLive(entry) || !sameRoomId(entry.roomId, roomId)) {
      return false;
    }
    entry.outcome = outcome;
    return true;
  }

  async sweep(): Promise<void> {
    for (const [code, entry] of this.entries) {
      if (!this.isLive(entry)) this.entries.delete(code);
    }
  }

  private isLive(entry: Entry): boolean {
    return this.now() < entry.expiresAt;
  }
}
