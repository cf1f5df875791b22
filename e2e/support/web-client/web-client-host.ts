import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSECURE_TEST_HOST } from '../chromium';
import { ChildProgram } from './child-program';
import { ensureRendererBuilt } from './renderer-build';

export interface RunningWebClient {
  /** Where a browser opens the web client. */
  url: string;
  /** The same server's signaling address, for native peers. */
  serverUrl: string;
  /** Served over HTTPS: the SHA-256 fingerprint of the certificate the host printed. */
  certificateFingerprint?: string;
  close(): Promise<void>;
}

/** Room for every test of a run: all peers here connect from one address. */
const GENEROUS_LIMITS = {
  MAX_CONNECTIONS_PER_IP: '10000',
  MAX_TURN_REQUESTS_PER_IP: '10000',
  MAX_CODE_REQUESTS_PER_IP: '10000',
};

const START_TIMEOUT_MS = 30_000;

/**
 * The web client and a signaling server on one origin, as a LAN room serves them: the real web
 * host program (`src-main/web-host/main.ts`) with WITH_SIGNALING=1. `lan` listens on every
 * interface and hands out this machine's non-loopback address, which a browser treats as an
 * insecure origin, as a phone on the LAN does. `insecureName` stays on loopback and hands out
 * `http://ferry-lan.test:<port>`, which Chromium maps to loopback (CHROMIUM_ARGS) and still treats
 * as an insecure origin; native peers get the loopback address as `serverUrl`. `https` serves the
 * room over HTTPS (HTTPS=1) on loopback with a certificate made in a fresh TLS_DIR, as the desktop
 * app's LAN room does with HTTPS on. `presence` keeps a roster of the devices connected
 * (PRESENCE=1; docs/protocol.md, "Presence"), as a LAN room does.
 */
export async function startWebClient(
  options: { lan?: boolean; insecureName?: boolean; https?: boolean; presence?: boolean } = {},
): Promise<RunningWebClient> {
  const root = ensureRendererBuilt();
  const lanAddress = options.lan ? nonLoopbackAddress() : undefined;
  const tlsDir = options.https ? mkdtempSync(join(tmpdir(), 'ferry-room-tls-')) : undefined;
  const host = new ChildProgram('src-main/web-host/main.ts', [], {
    ...GENEROUS_LIMITS,
    PORT: '0',
    HOST: lanAddress ? '0.0.0.0' : '127.0.0.1',
    WEB_ROOT: root,
    WITH_SIGNALING: '1',
    ...(tlsDir === undefined ? {} : { HTTPS: '1', TLS_DIR: tlsDir }),
    ...(options.presence ? { PRESENCE: '1' } : {}),
  });
  const [, listening, certificateFingerprint] = await host.waitForLine(
    /listening on (https?:\S+)(?: \(certificate SHA-256 ([0-9A-F:]+)\))?/,
    START_TIMEOUT_MS,
  );
  const port = new URL(listening).port;
  const url = lanAddress
    ? `http://${lanAddress}:${port}`
    : options.insecureName
      ? `http://${INSECURE_TEST_HOST}:${port}`
      : listening;
  return {
    url,
    serverUrl: options.insecureName ? listening : url,
    ...(certificateFingerprint === undefined ? {} : { certificateFingerprint }),
    close: async () => {
      await host.stop();
      if (tlsDir !== undefined) rmSync(tlsDir, { recursive: true, force: true });
    },
  };
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The web client on one origin and the signaling server on another, as a hosted deployment runs
 * them: the web host answers /api/config with SOCKET_URL, and the server lets the web client's
 * origin in through CLIENT_URL.
 */
export async function startSplitWebClient(): Promise<RunningWebClient> {
  const root = ensureRendererBuilt();
  const signalingPort = await freePort();
  const serverUrl = `http://127.0.0.1:${signalingPort}`;
  const host = new ChildProgram('src-main/web-host/main.ts', [], {
    PORT: '0',
    HOST: '127.0.0.1',
    WEB_ROOT: root,
    SOCKET_URL: serverUrl,
  });
  const [, url] = await host.waitForLine(/listening on (http:\S+)/, START_TIMEOUT_MS);
  const server = new ChildProgram('src-main/signaling-server/main.ts', [], {
    ...GENEROUS_LIMITS,
    PORT: String(signalingPort),
    HOST: '127.0.0.1',
    CLIENT_URL: new URL(url).origin,
  });
  try {
    await server.waitForLine(/listening on/, START_TIMEOUT_MS);
  } catch (error) {
    await host.stop();
    throw error;
  }
  return {
    url,
    serverUrl,
    close: async () => {
      await Promise.all([host.stop(), server.stop()]);
    },
  };
}

export function nonLoopbackAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  throw new Error('this machine has no non-loopback IPv4 address');
}
