import { describe, expect, it } from 'vitest';
import { startPeer, type PeerProcess } from './peer-process';

const MIB = 1024 * 1024;
const BUDGET = 6 * MIB;
const CONNECTIONS = 3;

describe('the bare peer over several connections (bench:wan --bare-connections)', () => {
  it('negotiates one connection per index and delivers the whole budget across them', async () => {
    const args = [`--connections=${CONNECTIONS}`];
    const offerer = startPeer('bare-peer.ts', ['offerer', String(BUDGET), ...args]);
    const answerer = startPeer('bare-peer.ts', ['answerer', String(BUDGET), ...args]);
    const offers = new Set<number>();
    const relay = (from: PeerProcess, to: PeerProcess) =>
      from.child.on('message', (message: { type: string; payload?: unknown }) => {
        if (message.type !== 'signal') return;
        const payload = message.payload as { connection: number; type?: string };
        if (payload.type === 'offer') offers.add(payload.connection);
        to.child.send(payload);
      });
    relay(offerer, answerer);
    relay(answerer, offerer);
    try {
      const received = await answerer.next('received');
      expect(received.bytes).toBe(BUDGET);
      expect([...offers].sort()).toEqual([0, 1, 2]);
      await Promise.all([offerer.next('finished'), answerer.next('finished')]);
    } finally {
      offerer.child.kill();
      answerer.child.kill();
    }
  }, 30_000);
});
