import type { ByteCounter } from './byte-counter';

/** The default counter: local to this server, back to zero on restart. */
export class InMemoryByteCounter implements ByteCounter {
  total = 0;

  async add(bytes: number): Promise<number> {
    this.total += bytes;
    return this.total;
  }
}
