import { expect, test } from '@playwright/test';
import { MINUTE_MS, SECOND_MS } from '../src-shared/time-units';
import { requireTool } from './support/required-tools';
import type { FerryPage } from './support/web-client/ferry-page';
import { usePageRig } from './support/web-client/page-rig';
import { randomFile } from './support/web-client/test-files';

requireTool('chromium');

// docs/protocol.md, "Progress": the sender shows what the receiver has taken. A receiver slowed
// down by CPU throttling keeps the sender's file equal to its own, and the time left finite.

const rig = usePageRig('sender-progress');

const FILE_COUNT = 6;
const FILE_BYTES = 20_000_000;
/** The receiver's page runs this many times slower than the machine (CDP). */
const RECEIVER_CPU_SLOWDOWN = 5;
/** How often both screens are read while the batch moves. */
const SAMPLE_EVERY_MS = 50;
/** A sane bound for what is left of 120 MB on loopback, however slow the receiver. */
const ETA_MAX_MS = 10 * MINUTE_MS;
/** Samples whose sender's file did not move across the receiver's read; fewer says too little. */
const MIN_COUNTED_SAMPLES = 10;

interface Sample {
  sender: string;
  receiver: string;
}

/** The progress section's text, or undefined once the page is past it. */
async function progressText(peer: FerryPage): Promise<string | undefined> {
  return peer.page.evaluate(
    () => document.querySelector('[data-testid="transfer-progress"]')?.textContent ?? undefined,
  );
}

/** "File 3 of 6: …" on a progress screen. */
function fileIndex(text: string | undefined): number | undefined {
  const match = /File (\d+) of \d+/.exec(text ?? '');
  return match === null ? undefined : Number(match[1]);
}

const UNIT_BYTES: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 };

/** "All files 8.3 MB of 120.0 MB": the batch's bytes done, as the screen rounds them. */
function batchBytes(text: string): number {
  const match = /All files([\d.]+) (B|kB|MB|GB) of/.exec(text);
  if (match === null) throw new Error(`no batch amount in: ${text}`);
  return Number(match[1]) * UNIT_BYTES[match[2]];
}

/** The time left the screen shows, in milliseconds, or undefined while it estimates. */
function etaMs(text: string): number | undefined {
  const match = /about (?:(\d+) h )?(?:(\d+) min ?)?(?:(\d+) s)? left/.exec(text);
  if (match === null) return undefined;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * SECOND_MS;
}

test('a throttled receiver keeps the sender’s file equal to its own and its time left finite', async ({
  browser,
}, testInfo) => {
  const sender = await rig.browserPeer(browser);
  const receiver = await rig.browserPeer(browser);
  const cdp = await receiver.page.context().newCDPSession(receiver.page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RECEIVER_CPU_SLOWDOWN });

  const files = Array.from({ length: FILE_COUNT }, (_, index) =>
    randomFile(rig.scratch.path, `batch/part-${index + 1}.bin`, FILE_BYTES),
  );
  const code = await sender.send(files);
  await receiver.receive(code);
  await receiver.accept();

  const samples: Sample[] = [];
  /** Every moment both screens showed progress, counted or not. */
  let reads = 0;
  let shot = false;
  await expect
    .poll(
      async () => {
        // Sender, receiver, sender: the sample counts only when the sender's file stood still
        // across the receiver's read, so both files are of one moment.
        const senderText = await progressText(sender);
        const receiverText = await progressText(receiver);
        const senderAgain = await progressText(sender);
        if (receiverText === undefined || senderText === undefined) {
          return (await sender.page.getByTestId('transfer-done').count()) > 0;
        }
        reads += 1;
        if (fileIndex(senderAgain) !== fileIndex(senderText)) return false;
        samples.push({ sender: senderText, receiver: receiverText });
        if (!shot && (fileIndex(receiverText) ?? 0) >= 2) {
          shot = true;
          await Promise.all([
            sender.page.screenshot({ path: testInfo.outputPath('sender-progress.png') }),
            receiver.page.screenshot({ path: testInfo.outputPath('receiver-progress.png') }),
          ]);
        }
        return false;
      },
      { timeout: 3 * MINUTE_MS, intervals: [SAMPLE_EVERY_MS] },
    )
    .toBe(true);
  expect(await receiver.done()).toContain(`${FILE_COUNT} files`);

  // Enough counted samples to mean something, taken while the receiver was on more than one file.
  expect(samples.length, `${samples.length} of ${reads} reads counted`).toBeGreaterThanOrEqual(
    MIN_COUNTED_SAMPLES,
  );
  expect(new Set(samples.map((sample) => fileIndex(sample.receiver))).size).toBeGreaterThan(1);
  for (const sample of samples) {
    const seen = `sender: ${sample.sender} / receiver: ${sample.receiver}`;
    const eta = etaMs(sample.sender);
    if (eta !== undefined) expect(eta, seen).toBeLessThanOrEqual(ETA_MAX_MS);
    expect(sample.sender, seen).not.toMatch(/\d+ h \d+ min left/);
    // At one moment, both screens are on the same file.
    expect(fileIndex(sample.sender), seen).toBeDefined();
    expect(fileIndex(sample.sender), seen).toBe(fileIndex(sample.receiver));
    // And the sender never shows a byte the receiver has not shown first.
    expect(batchBytes(sample.sender), seen).toBeLessThanOrEqual(batchBytes(sample.receiver));
  }
  await testInfo.attach('sender', { path: testInfo.outputPath('sender-progress.png') });
  await testInfo.attach('receiver', { path: testInfo.outputPath('receiver-progress.png') });
});
