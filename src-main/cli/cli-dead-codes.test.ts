import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asSentence } from '../../src-shared/format/as-sentence';
import { ERROR_MESSAGES } from '../../src-shared/protocol';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { writeTextFile } from '../engine/test-support/files-on-disk';
import { EXIT } from './exit-codes';
import { startCli, startCliReceiver } from './test-support/cli-process';
import { WsPeer } from '../signaling-server/test-support/peers';

const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;

const rig = useLoopbackRig();

function codeOf(line: string): string {
  return CODE_LINE.exec(line)?.[1] ?? '';
}

/** A CLI sender of one small file, once it shows its code. */
async function sending(
  name: string,
): Promise<{ sender: ReturnType<typeof startCli>; code: string }> {
  const file = join(rig.scratch.path, name, 'note.txt');
  await writeTextFile(file, 'a note\n');
  const sender = startCli(['send', '--server', rig.server.url, file]);
  return { sender, code: codeOf(await sender.line(CODE_LINE)) };
}

// docs/protocol.md, "Dead codes": a code that leads to no one says why, and exits non-zero.
describe('a code that leads to no one, typed on the command line', () => {
  it('a code whose transfer finished: "already used", exit 5', async () => {
    const { sender, code } = await sending('used');
    // Both ways to receive are named: the command line's, and the words for the app or a page.
    await sender.line(/^On the other device run: ferry receive [a-z-]+ --key=\S+$/);
    expect(
      await sender.line(/^Or in the Ferry app or its web page, choose Receive and type: /),
    ).toBe(`Or in the Ferry app or its web page, choose Receive and type: ${code}`);
    const first = startCliReceiver(rig.server.url, join(rig.scratch.path, 'used-1'), code);
    expect((await Promise.all([sender.exited, first.exited])).map((end) => end.code)).toEqual([
      EXIT.ok,
      EXIT.ok,
    ]);

    const again = await startCliReceiver(rig.server.url, join(rig.scratch.path, 'used-2'), code)
      .exited;
    expect(again.code).toBe(EXIT.unreachable);
    expect(again.stderr).toContain(`Error: ${asSentence(ERROR_MESSAGES.ERR_CODE_USED)}`);
  });

  it('a code its sender cancelled before anyone came: "the sender cancelled", exit 5', async () => {
    const { sender, code } = await sending('cancelled');
    sender.interrupt();
    expect((await sender.exited).code).toBe(EXIT.interrupted);

    const receiver = await startCliReceiver(rig.server.url, join(rig.scratch.path, 'c'), code)
      .exited;
    expect(receiver.code).toBe(EXIT.unreachable);
    expect(receiver.stderr).toContain(`Error: ${asSentence(ERROR_MESSAGES.ERR_CODE_CANCELLED)}`);
  });

  it('a code whose sender left without a word: "no one is waiting", not a lost connection', async () => {
    // A sender that registers and leaves the room, as a crash or a spec-only peer would.
    const roomId = randomUUID();
    const registered = await fetch(new URL('/api/code', rig.server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ roomId }),
    });
    const { code } = (await registered.json()) as { code: string };
    const gone = await WsPeer.connect(rig.server.url);
    expect(await gone.join(roomId)).toEqual({ type: 'room-joined', role: 'sender' });
    // Joining another room leaves the first; its answer says the server has done so.
    expect(await gone.join(randomUUID())).toEqual({ type: 'room-joined', role: 'sender' });

    const receiver = await startCliReceiver(rig.server.url, join(rig.scratch.path, 'g'), code)
      .exited;
    expect(receiver.code).toBe(EXIT.unreachable);
    expect(receiver.stderr).toContain(`Error: ${asSentence(ERROR_MESSAGES.ERR_NO_ONE_WAITING)}`);
    expect(receiver.stderr).not.toContain('The other device closed the connection');
  });
});
