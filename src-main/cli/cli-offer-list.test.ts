import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { filesUnder, writeTextFile } from '../engine/test-support/files-on-disk';
import { EXIT } from './exit-codes';
import { startCli } from './test-support/cli-process';

const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;

const rig = useLoopbackRig();

describe('the command-line receiver asked about a batch a Ferry sender listed', () => {
  it('prints every name before the question, flagging hidden files and programs', async () => {
    const source = join(rig.scratch.path, 'listed', 'kit');
    await writeTextFile(join(source, 'readme.txt'), 'read me\n');
    await writeTextFile(join(source, '.config', 'settings.json'), '{}\n');
    // A Java archive runs on a double-click on Windows, macOS and Linux alike.
    await writeTextFile(join(source, 'install.jar'), 'echo hi\n');
    const destination = join(rig.scratch.path, 'listed-received');

    const sender = startCli(['send', '--server', rig.server.url, source]);
    const code = CODE_LINE.exec(await sender.line(CODE_LINE))?.[1] ?? '';
    const receiver = startCli([
      'receive',
      '--server',
      rig.server.url,
      '--out',
      destination,
      '--no-report',
      code,
    ]);
    await receiver.line(/\[y\/N\]/);
    receiver.type('y\n');
    const [received, sent] = await Promise.all([receiver.exited, sender.exited]);

    expect(received.code, received.stderr).toBe(EXIT.ok);
    expect(sent.code, sent.stderr).toBe(EXIT.ok);
    const stdout = received.stdout;
    const offer = stdout.slice(stdout.indexOf('Incoming:'), stdout.indexOf('Save to'));
    expect(offer.split('\n')).toEqual([
      expect.stringMatching(
        /^Incoming: 3 files, 19 B in all, from [^(]+ \(sender runs Ferry [^)]+\):$/,
      ),
      '  kit/.config/settings.json (3 B) [hidden]',
      '  kit/install.jar (8 B) [executable]',
      '  kit/readme.txt (8 B)',
      expect.stringMatching(
        /^Verify: [a-z]+ [a-z]+ [a-z]+ \(check the other device shows the same words\)$/,
      ),
      '',
    ]);
    expect(await filesUnder(destination)).toEqual([
      'kit/.config/settings.json',
      'kit/install.jar',
      'kit/readme.txt',
    ]);
  });
});
