import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_REQUEST_TIMEOUT_MS } from '../../src-shared/protocol';
import { receiveFiles, sendFiles } from '.';
import { scratchFolder, writeTextFile } from './test-support/files-on-disk';
import { startLoopbackServer } from './test-support/loopback-server';
import { transferPair } from './test-support/transfer-pair';

let silent: { server: Server; url: string; sockets: Socket[] };
let scratch: Awaited<ReturnType<typeof scratchFolder>>;

/** A host that accepts connections and never says a word, like a server hung behind a proxy. */
async function startSilentHost(): Promise<{ server: Server; url: string; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}`, sockets };
}

beforeAll(async () => {
  silent = await startSilentHost();
  scratch = await scratchFolder();
});

afterAll(async () => {
  for (const socket of silent.sockets) socket.destroy();
  await new Promise((resolve) => silent.server.close(resolve));
  await scratch.remove();
});

const SHORT = 300;

describe('a signaling server that does not answer', () => {
  it('costs the sender its code-request deadline, then "could not register code"', async () => {
    const file = join(scratch.path, 'unsent.txt');
    await writeTextFile(file, 'never offered');
    const startedAt = performance.now();

    const final = await sendFiles({
      serverUrl: silent.url,
      paths: [file],
      remedySurface: 'cli',
      timeouts: { codeRequest: SHORT, roleWait: SHORT, relayCredentials: SHORT },
    }).finished;

    expect(final).toMatchObject({ phase: 'failed', code: 'ERR_REGISTER_CODE' });
    expect(final.phase === 'failed' && final.message).toMatch(/^could not register code/);
    expect(performance.now() - startedAt).toBeLessThan(CODE_REQUEST_TIMEOUT_MS / 3);
  });

  it('costs the receiver its code-request deadline, then "could not reach signaling server"', async () => {
    const startedAt = performance.now();

    const final = await receiveFiles({
      serverUrl: silent.url,
      code: 'acid-acorn-acre',
      destination: join(scratch.path, 'nothing'),
      remedySurface: 'cli',
      timeouts: { codeRequest: SHORT, relayCredentials: SHORT },
    }).finished;

    expect(final).toMatchObject({ phase: 'failed', code: 'ERR_SIGNALING_UNREACHABLE' });
    expect(final.phase === 'failed' && final.message).toMatch(/^could not reach signaling server/);
    expect(performance.now() - startedAt).toBeLessThan(CODE_REQUEST_TIMEOUT_MS / 3);
  });
});

describe('relay credentials refused with 429', () => {
  it('fall back to STUN only with a warning, and a direct route still carries the transfer', async () => {
    // One credential request per minute: the sender gets it, the receiver is turned away.
    const server = await startLoopbackServer({ maxTurnRequestsPerIp: 1 });
    const file = join(scratch.path, 'limited', 'note.txt');
    await writeTextFile(file, 'sent anyway');
    const warnings: string[] = [];

    const outcome = await transferPair(
      server.url,
      { paths: [file] },
      { destination: join(scratch.path, 'limited-received') },
      (receiver) => receiver.on('warning', (message) => warnings.push(message)),
    ).finally(() => server.close());

    expect(outcome.receiver.phase).toBe('done');
    expect(warnings).toEqual([expect.stringMatching(/too many requests.*STUN only/)]);
  });
});
