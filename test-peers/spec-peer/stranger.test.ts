import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNativePresence } from '../../src-main/engine';
import { startLoopbackServer } from '../../src-main/engine/test-support/loopback-server';
import { openBrowserPresence } from '../../src-renderer/backend/browser/browser-presence';
import type { PresenceSeat } from '../../src-shared/nearby/nearby-ports';
import { specReceive, specSend } from './index';

// docs/protocol.md, "Presence": a peer that knows only the spec sees the spec's server, whether
// presence is off or on and busy around it. The spec peer checks every server message against
// the spec's table and fails on anything else, so one presence message reaching it fails the run.

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'spec-stranger-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const FILES = [
  { name: 'notes.txt', bytes: new TextEncoder().encode('a stranger\n') },
  { name: 'data.bin', bytes: new Uint8Array(256 * 1024 + 3).map((_, i) => i % 251) },
];

const ROOM = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

describe.each([false, true])('the spec peer against a server with presence %s', (presence) => {
  it('moves a whole batch, however busy the roster is', async () => {
    const server = await startLoopbackServer({ presence });
    const seats: PresenceSeat[] = [];
    const list = async (open: ReturnType<typeof openNativePresence>, name: string) => {
      const seat = await open({ name, kind: 'cli' }, new AbortController().signal);
      if (seat !== undefined) seats.push(seat);
      return seat;
    };
    try {
      const before = await list(openNativePresence(server.url), 'listed before');
      expect(before !== undefined).toBe(presence);
      const dir = join(scratch, String(presence));
      let receiving: ReturnType<typeof specReceive> | undefined;
      const sent = await specSend({
        serverUrl: server.url,
        files: FILES,
        onCode: (code) => {
          // The roster changes and an invitation passes while the spec peers meet.
          void list(openBrowserPresence(server.url), 'listed during').then((during) => {
            if (during !== undefined && before !== undefined) during.invite(before.self, ROOM);
          });
          receiving = specReceive({ serverUrl: server.url, code, dir });
        },
      });
      const received = await receiving;

      expect(sent.confirmed).toBe(true);
      expect(received?.saved.map((file) => file.name)).toEqual(FILES.map((file) => file.name));
      for (const file of FILES) {
        expect(new Uint8Array(await readFile(join(dir, file.name)))).toEqual(file.bytes);
      }
    } finally {
      for (const seat of seats) seat.close();
      await server.close();
    }
  });
});
