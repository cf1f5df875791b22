import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { request as secureRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanRoomView } from '../../src-shared/ipc/contract';
import { openNativePresence } from '../engine';
import { LanRoomHost } from './lan-room-host';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ferry-lan-room-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Ferry</title>');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The status of /health asked with `host` as the Host header, and the certificate presented. */
function answerFor(url: string, host: string): Promise<{ status: number; fingerprint?: string }> {
  const { hostname, port, protocol } = new URL(url);
  const send = protocol === 'https:' ? secureRequest : request;
  return new Promise((resolve, reject) => {
    // Trusted by fingerprint below, as a person compares it, not by an authority.
    send(
      { host: hostname, port, path: '/health', headers: { host }, rejectUnauthorized: false },
      (response) => {
        response.resume();
        const socket = response.socket as { getPeerCertificate?: () => { fingerprint256: string } };
        resolve({
          status: response.statusCode ?? 0,
          fingerprint: socket.getPeerCertificate?.().fingerprint256,
        });
      },
    )
      .on('error', reject)
      .end();
  });
}

const statusFor = async (url: string, host: string): Promise<number> =>
  (await answerFor(url, host)).status;

function roomHost(https: () => boolean, certificateFolder = root): LanRoomHost {
  return new LanRoomHost({
    webClientRoot: root,
    address: '127.0.0.1',
    https,
    certificateFolder,
    publish: () => {},
  });
}

function onView(view: LanRoomView): { url: string; fingerprint?: string } {
  if (view.state !== 'on') throw new Error(`the room did not start: ${JSON.stringify(view)}`);
  return view;
}

describe("the desktop app's LAN room", () => {
  it('answers at its own address only, so a rebinding name cannot reach it', async () => {
    const room = roomHost(() => false);
    const view = onView(await room.set(true));
    try {
      expect(view.url).toMatch(/^http:/);
      expect(view.fingerprint).toBeUndefined();
      const own = new URL(view.url).host;
      expect(await statusFor(view.url, own)).toBe(200);
      expect(await statusFor(view.url, `evil.example:${new URL(view.url).port}`)).toBe(421);
    } finally {
      await room.set(false);
    }
  });

  it('keeps a presence roster, so the devices that open it see each other', async () => {
    const room = roomHost(() => false);
    const view = onView(await room.set(true));
    const open = openNativePresence(view.url);
    const cancel = new AbortController();
    try {
      const laptop = await open({ name: 'laptop', kind: 'desktop' }, cancel.signal);
      const cli = await open({ name: 'build box', kind: 'cli' }, cancel.signal);

      expect(cli?.devices()).toEqual([{ id: laptop?.self, name: 'laptop', kind: 'desktop' }]);
    } finally {
      cancel.abort();
      await room.set(false);
    }
  });

  it('serves HTTPS when asked, shows the fingerprint its certificate has, and keeps it', async () => {
    let https = false;
    const room = roomHost(() => https, mkdtempSync(join(tmpdir(), 'ferry-lan-room-tls-')));
    try {
      expect(onView(await room.set(true)).url).toMatch(/^http:/);
      https = true;
      const secure = onView(await room.restart());
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
      expect(secure.fingerprint).toMatch(/^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/);
      expect(room.fingerprint).toBe(secure.fingerprint);
      const own = new URL(secure.url).host;
      expect(await answerFor(secure.url, own)).toEqual({
        status: 200,
        fingerprint: secure.fingerprint,
      });
      expect(await statusFor(secure.url, `evil.example:${new URL(secure.url).port}`)).toBe(421);

      await room.set(false);
      const again = onView(await room.set(true));
      expect(again.fingerprint).toBe(secure.fingerprint);
    } finally {
      await room.set(false);
    }
  });
});
