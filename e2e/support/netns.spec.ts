import { execFileSync, spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import {
  canUseNetns,
  createNetnsPair,
  NETNS_PREFIX,
  removeStaleNetns,
  type NetnsPair,
} from './netns';

const PORT = 4000;

// Plain CommonJS for `node -e`: a one-line server in namespace A, one-line clients in B.
const serve = `require('node:net').createServer((s) => s.end('hello from a'))
  .listen(${PORT}, process.argv[1], () => console.log('listening'));`;
const fetchGreeting = `const s = require('node:net').connect(${PORT}, process.argv[1]);
  s.setEncoding('utf8').on('data', (d) => console.log(d));
  s.on('error', (e) => { console.log(e.code); process.exitCode = 1; });`;

function namespaces(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.split(' ')[0]);
}

test.describe('a two-device LAN of network namespaces', () => {
  let lan: NetnsPair | undefined;

  test.beforeEach(async () => {
    test.skip(!(await canUseNetns()), 'needs root and a working `ip netns`');
    lan = await createNetnsPair();
  });

  test.afterEach(async () => {
    await lan?.destroy();
  });

  test('a program listening in one namespace is reachable from the other over the link', async () => {
    const { a, b } = lan!;
    const server = a.spawn(process.execPath, ['-e', serve, a.address]);
    await server.waitForLine('listening');

    const client = await b.run(process.execPath, ['-e', fetchGreeting, a.address]);
    expect(client).toMatchObject({ code: 0, stdout: 'hello from a\n' });
  });

  test('a program started the moment the pair exists already sees its address on the link', async () => {
    for (const side of [lan!.a, lan!.b]) {
      const listed = await side.run(process.execPath, [
        '-e',
        'console.log(JSON.stringify(require("node:os").networkInterfaces()[process.argv[1]] ?? []))',
        side.interfaceName,
      ]);
      const addresses = (JSON.parse(listed.stdout) as { address: string }[]).map(
        (entry) => entry.address,
      );
      expect(addresses).toContain(side.address);
    }
  });

  test('an address beyond the link fails at once, because there is no default route', async () => {
    const { b } = lan!;
    expect((await b.run('ip', ['route'])).stdout).not.toContain('default');

    const started = Date.now();
    // TEST-NET-2 (RFC 5737): routed nowhere, and no packet for it leaves namespace B anyway.
    const client = await b.run(process.execPath, ['-e', fetchGreeting, '198.51.100.7']);
    expect(client).toMatchObject({ code: 1, stdout: 'ENETUNREACH\n' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('multicast is on for the link in both namespaces', async () => {
    for (const side of [lan!.a, lan!.b]) {
      const link = await side.run('ip', ['-o', 'link', 'show', side.interfaceName]);
      expect(link.stdout).toMatch(/<[^>]*MULTICAST[^>]*UP[^>]*>/);
    }
  });

  test('waiting for a line fails as soon as the program exits without printing it', async () => {
    const quitter = lan!.a.spawn(process.execPath, ['-e', "console.log('something else')"]);
    await expect(quitter.waitForLine('ready', 30_000)).rejects.toThrow(
      /exited \(0\) before printing ready[\s\S]*something else/,
    );
  });

  test('destroy ends the programs still running and deletes both namespaces', async () => {
    const current = lan!;
    const server = current.a.spawn(process.execPath, ['-e', serve, current.a.address]);
    await server.waitForLine('listening');

    await current.destroy();
    lan = undefined;

    expect(await server.waitForExit()).toBeNull();
    expect(namespaces()).not.toContain(current.a.namespace);
    expect(namespaces()).not.toContain(current.b.namespace);
  });
});

test('removes the namespaces of a crashed run, and leaves a live run alone', async () => {
  test.skip(!(await canUseNetns()), 'needs root and a working `ip netns`');
  const finished = spawnSync(process.execPath, ['-e', '']);
  const crashed = `${NETNS_PREFIX}${finished.pid}-1-a`;
  const running = `${NETNS_PREFIX}${process.pid}-999-a`;
  execFileSync('ip', ['netns', 'add', crashed]);
  execFileSync('ip', ['netns', 'add', running]);
  try {
    expect(await removeStaleNetns()).toContain(crashed);
    expect(namespaces()).not.toContain(crashed);
    expect(namespaces()).toContain(running);
  } finally {
    spawnSync('ip', ['netns', 'delete', crashed]);
    spawnSync('ip', ['netns', 'delete', running]);
  }
});
