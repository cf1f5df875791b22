import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canUseNetns,
  createNetnsPair,
  typeScriptArgs,
  type NetnsHost,
  type NetnsPair,
} from '../../e2e/support/netns';
import { skipLine } from '../../test-support/required-tools';
import { EXIT } from './exit-codes';

const netnsUsable = await canUseNetns();
const SUITE = '--lan on a LAN of two namespaces (needs root and ip netns)';
if (!netnsUsable) {
  process.stdout.write(
    `${skipLine('needs root and ip netns (apt-get install iproute2; run as root)', `src-main/cli/cli-lan.test.ts › ${SUITE}`)}\n`,
  );
}

function announce(host: NetnsHost, port: string) {
  const script = fileURLToPath(
    new URL('../lan/test-support/announce-room-process.ts', import.meta.url),
  );
  return host.spawn(process.execPath, typeScriptArgs(script, host.address, port));
}

function cli(host: NetnsHost, ...args: string[]) {
  const script = fileURLToPath(new URL('./main.ts', import.meta.url));
  return host.spawn(process.execPath, typeScriptArgs(script, ...args));
}

describe.skipIf(!netnsUsable)(SUITE, () => {
  let lan: NetnsPair;

  beforeEach(async () => {
    lan = await createNetnsPair();
  });

  afterEach(async () => {
    await lan.destroy();
  });

  it('refuses to pick when two rooms answer: it lists both and asks for --server', async () => {
    const rooms = [announce(lan.a, '3001'), announce(lan.b, '3002')];
    await Promise.all(rooms.map((room) => room.waitForLine('announced', 20_000)));

    const receiver = cli(lan.b, 'receive', '--lan', 'plum-otter-cask');
    expect(await receiver.waitForExit(20_000), receiver.transcript()).toBe(EXIT.usage);
    const said = receiver.transcript();
    expect(said).toContain('2 LAN rooms answered on this network, so --lan will not pick one');
    expect(said).toContain('--server <url>');
    // Each line names the room and its address; which host won the name is the tie-break's call.
    for (const url of [`http://${lan.a.address}:3001`, `http://${lan.b.address}:3002`]) {
      expect(said).toMatch(
        new RegExp(`^  Ferry room( \\(2\\))?  ${url.replaceAll('.', '\\.')}$`, 'm'),
      );
    }
    expect(said).toContain('Ferry room (2)');
  });
});
