import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  RELAY_PROVIDER_CACHE_MS,
  RELAY_PROVIDER_STALE_REUSE_MS,
} from '../../../src-shared/signaling/limits';
import { ManualClock } from '../test-support/manual-time';
import { RelayProviderStub } from '../test-support/relay-provider-stub';
import { json, startTestServer } from '../test-support/test-server';

const PUBLIC_STUN = [
  { urls: 'stun:stun.l.google.com:19302' },
  { urls: 'stun:stun1.l.google.com:19302' },
];

const TRIMMED_FIRST_MINT = [
  { urls: ['stun:stun.cloudflare.com:3478'] },
  {
    urls: [
      'turn:turn.cloudflare.com:3478?transport=udp',
      'turns:turn.cloudflare.com:443?transport=tcp',
    ],
    username: 'user-1',
    credential: 'secret-1',
  },
];

async function credentials(url: string): Promise<unknown> {
  const response = await fetch(`${url}/api/turn-credentials`);
  expect(response.status).toBe(200);
  return json(response);
}

function providerOptions(stub: RelayProviderStub) {
  return {
    turnProviderKeyId: 'key-1',
    turnProviderApiToken: 'token-1',
    turnProviderUrl: stub.url,
  };
}

describe('GET /api/turn-credentials without any TURN configuration', () => {
  it('returns the two public STUN entries, as an array with string urls', async () => {
    const server = await startTestServer();
    expect(await credentials(server.url)).toEqual(PUBLIC_STUN);
  });

  it('ignores half a self-hosted configuration', async () => {
    const server = await startTestServer({ turnSecret: 's3cret' });
    expect(await credentials(server.url)).toEqual(PUBLIC_STUN);
  });
});

describe('GET /api/turn-credentials in a LAN room (host candidates only)', () => {
  it('returns an empty array, even with TURN configured, so no request leaves the network', async () => {
    const server = await startTestServer({
      hostCandidatesOnly: true,
      turnSecret: 's3cret',
      turnDomain: 'turn.example.org',
    });
    expect(await credentials(server.url)).toEqual([]);
  });
});

describe('GET /api/turn-credentials with self-hosted TURN (TURN_SECRET and TURN_DOMAIN)', () => {
  it('returns STUN, TURN and TURNS entries with an HMAC credential expiring in 1 hour', async () => {
    const clock = new ManualClock(Date.UTC(2025, 0, 1, 0, 0, 0, 500));
    const server = await startTestServer({
      now: clock.now,
      turnSecret: 's3cret',
      turnDomain: 'turn.example.org',
    });
    const entries = (await credentials(server.url)) as Array<{ username?: string }>;
    const username = entries[1].username ?? '';
    const [expiry, user] = username.split(':');
    expect(Number(expiry)).toBe(Math.floor(clock.now() / 1000) + 60 * 60);
    const credential = createHmac('sha1', 's3cret').update(username).digest('base64');
    expect(entries).toEqual([
      { urls: 'stun:turn.example.org:3478' },
      { urls: 'turn:turn.example.org:3478', username, credential },
      { urls: 'turns:turn.example.org:5349', username, credential },
    ]);
    expect(user).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('names a different TURN user in every answer, never the shared relayuser', async () => {
    const server = await startTestServer({ turnSecret: 's3cret', turnDomain: 'turn.example.org' });
    const users = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      const entries = (await credentials(server.url)) as Array<{ username?: string }>;
      users.add(entries[1].username?.split(':')[1] ?? '');
    }
    expect(users.size).toBe(5);
    expect(users.has('relayuser')).toBe(false);
  });
});

describe('GET /api/turn-credentials with a relay provider', () => {
  it('takes precedence over self-hosted TURN and calls generate-ice-servers with the bearer token and a 1-hour ttl', async () => {
    const stub = await RelayProviderStub.start();
    const server = await startTestServer({
      ...providerOptions(stub),
      turnSecret: 's3cret',
      turnDomain: 'turn.example.org',
    });
    expect(await credentials(server.url)).toEqual(TRIMMED_FIRST_MINT);
    expect(stub.calls).toEqual([
      {
        method: 'POST',
        path: '/v1/turn/keys/key-1/credentials/generate-ice-servers',
        authorization: 'Bearer token-1',
        body: { ttl: 3_600 },
      },
    ]);
  });

  it('ignores the provider when only one of its two variables is set', async () => {
    const stub = await RelayProviderStub.start();
    const server = await startTestServer({ turnProviderKeyId: 'key-1', turnProviderUrl: stub.url });
    expect(await credentials(server.url)).toEqual(PUBLIC_STUN);
    expect(stub.calls).toEqual([]);
  });

  it('serves minted credentials from memory for 5 minutes, then mints again', async () => {
    const clock = new ManualClock();
    const stub = await RelayProviderStub.start();
    const server = await startTestServer({ ...providerOptions(stub), now: clock.now });
    expect(await credentials(server.url)).toEqual(TRIMMED_FIRST_MINT);
    clock.advance(RELAY_PROVIDER_CACHE_MS - 1);
    expect(await credentials(server.url)).toEqual(TRIMMED_FIRST_MINT);
    expect(stub.calls).toHaveLength(1);
    clock.advance(1);
    expect(await credentials(server.url)).toMatchObject([{}, { username: 'user-2' }]);
    expect(stub.calls).toHaveLength(2);
  });

  it('gives up on an upstream that does not answer within the timeout and falls back', async () => {
    const stub = await RelayProviderStub.start();
    stub.mood = 'hang';
    const server = await startTestServer({
      ...providerOptions(stub),
      turnProviderTimeoutMs: 100,
      turnSecret: 's3cret',
      turnDomain: 'turn.example.org',
    });
    expect(await credentials(server.url)).toMatchObject([
      { urls: 'stun:turn.example.org:3478' },
      { urls: 'turn:turn.example.org:3478' },
      { urls: 'turns:turn.example.org:5349' },
    ]);
    expect(server.logs.join('\n')).toMatch(/Relay provider failed/);
  });

  it('reuses the last good copy while the upstream fails, for up to half an hour, then falls back', async () => {
    const clock = new ManualClock();
    const stub = await RelayProviderStub.start();
    const server = await startTestServer({ ...providerOptions(stub), now: clock.now });
    expect(await credentials(server.url)).toEqual(TRIMMED_FIRST_MINT);

    stub.mood = 'fail';
    clock.advance(RELAY_PROVIDER_CACHE_MS);
    expect(await credentials(server.url)).toEqual(TRIMMED_FIRST_MINT);
    clock.advance(RELAY_PROVIDER_STALE_REUSE_MS - RELAY_PROVIDER_CACHE_MS - 1);
    expect(await credentials(server.url)).toEqual(TRIMMED_FIRST_MINT);
    clock.advance(1);
    expect(await credentials(server.url)).toEqual(PUBLIC_STUN);
    expect(stub.calls).toHaveLength(4);

    stub.mood = 'mint';
    expect(await credentials(server.url)).toMatchObject([{}, { username: 'user-2' }]);
  });

  it('treats a list without usable TURN as a failure', async () => {
    const stub = await RelayProviderStub.start(() => [{ urls: ['stun:stun.example.org:3478'] }]);
    const server = await startTestServer(providerOptions(stub));
    expect(await credentials(server.url)).toEqual(PUBLIC_STUN);
  });
});
