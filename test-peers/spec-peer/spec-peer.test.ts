import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startLoopbackServer } from '../../src-main/engine/test-support/loopback-server';
import type { RunningServer } from '../../src-main/signaling-server';
import { specReceive, specSend, type Profile } from './index';

// The spec peer against itself, so a failure against Ferry can be trusted to be Ferry's, and
// against a receiver that leaves the room before the connection is up, which it must refuse.
// (Only the server comes from Ferry here: the peer under test imports nothing from it.)
let server: RunningServer;
let scratch: string;

beforeAll(async () => {
  server = await startLoopbackServer({ maxConnectionsPerIp: 10_000, maxCodeRequestsPerIp: 10_000 });
  scratch = await mkdtemp(join(tmpdir(), 'spec-peer-'));
});

afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

const FILES = [
  { name: 'notes.txt', bytes: new TextEncoder().encode('spec peer\n') },
  { name: 'empty.txt', bytes: new Uint8Array() },
  { name: 'dir/sub/data.bin', bytes: new Uint8Array(1024 * 1024 + 7).map((_, i) => i % 251) },
];

describe('the spec peer with itself', () => {
  for (const profile of ['native', 'browser'] as const satisfies readonly Profile[]) {
    it(`moves a batch with ${profile} rules on both sides`, async () => {
      const dir = join(scratch, profile);
      let receiving: ReturnType<typeof specReceive> | undefined;
      const sent = await specSend({
        serverUrl: server.url,
        files: FILES,
        profile,
        onCode: (code) => {
          receiving = specReceive({ serverUrl: server.url, code, dir, profile });
        },
      });
      const received = await receiving;

      expect(received?.saved.map((file) => file.name)).toEqual(FILES.map((file) => file.name));
      for (const file of FILES) {
        expect(new Uint8Array(await readFile(join(dir, file.name)))).toEqual(file.bytes);
      }
      expect(sent.confirmed).toBe(profile === 'native');
      expect(received?.receivedSent).toBe(profile === 'native');
    });
  }

  it('fails an attempt when the receiver leaves the room before the channel is open', async () => {
    const sending = specSend({
      serverUrl: server.url,
      files: FILES,
      onCode: (code) => void joinAndLeave(code),
    });

    await expect(sending).rejects.toThrow(/left the room \(peer-disconnected\)/);
  });
});

/** A receiver that takes its seat and leaves the moment it has it. */
async function joinAndLeave(code: string): Promise<void> {
  const response = await fetch(new URL(`/api/code/${code}`, server.url));
  const { roomId } = (await response.json()) as { roomId: string };
  const socket = new WebSocket(new URL('/ws', server.url.replace(/^http/, 'ws')));
  socket.on('open', () => socket.send(JSON.stringify({ type: 'join-room', roomId })));
  socket.on('message', () => socket.close());
}
