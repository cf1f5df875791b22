import type { Clock } from '../schedule';
import type { CodeStore } from './code-store';

interface Entry {
  roomId: string;
  expiresAt: number;
}

export class InMemoryCodeStore implements CodeStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: Clock) {}

  async claim(code: string, roomId: string, expiresAt: number): Promise<boolean> {
    const held = this.entries.get(code);
    if (held !== undefined && this.isLive(held)) return false;
    this.entries.set(code, { roomId, expiresAt });
    return true;
  }

  async resolve(code: string): Promise<string | undefined> {
    const entry = this.entries.get(code);
    return entry !== undefined && this.isLive(entry) ? entry.roomId : undefined;
  }

  async count(): Promise<number> {
    return this.entries.size;
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
