import type { Clock } from '../schedule';
import type { Claim, CodeStore } from './code-store';

interface Entry {
  roomId: string;
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

  async resolve(code: string): Promise<string | undefined> {
    const entry = this.entries.get(code);
    return entry !== undefined && this.isLive(entry) ? entry.roomId : undefined;
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
