import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanRoomView } from '../../src-shared/ipc/contract';
import { LanRoomHost } from './lan-room-host';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ferry-lan-room-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Ferry</title>');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function statusFor(url: string, host: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path: '/health', headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe("the desktop app's LAN room", () => {
  it('answers at its own address only, so a rebinding name cannot reach it', async () => {
    const room = new LanRoomHost({ webClientRoot: root, address: '127.0.0.1', publish: () => {} });
    const view: LanRoomView = await room.set(true);
    try {
      if (view.state !== 'on') throw new Error(`the room did not start: ${JSON.stringify(view)}`);
      const own = new URL(view.url).host;
      expect(await statusFor(view.url, own)).toBe(200);
      expect(await statusFor(view.url, `evil.example:${new URL(view.url).port}`)).toBe(421);
    } finally {
      await room.set(false);
    }
  });
});
