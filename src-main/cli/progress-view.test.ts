import { describe, expect, it } from 'vitest';
import type { ProgressView } from '../../src-shared/transfer/transfer-view';
import { ProgressDisplay } from './progress-view';

const MiB = 1024 * 1024;

function progress(change: Partial<ProgressView>): ProgressView {
  return {
    fileIndex: 1,
    fileCount: 2,
    fileName: 'disc/track.flac',
    fileBytes: 0,
    fileSize: 10 * MiB,
    bytesDone: 0,
    totalBytes: 20 * MiB,
    bytesPerSecond: 0,
    ...change,
  };
}

function capture(isTTY: boolean) {
  const written: string[] = [];
  let now = 0;
  const display = new ProgressDisplay(
    { write: (text) => void written.push(text), isTTY, columns: 100 },
    'Sending',
    () => now,
  );
  return { written, display, advance: (ms: number) => (now += ms) };
}

describe('progress on a terminal is one bar with bytes, speed and ETA', () => {
  it('redraws one line in place and names each file once', () => {
    const { written, display } = capture(true);
    display.show(progress({ bytesDone: 5 * MiB, bytesPerSecond: 2 * MiB, etaSeconds: 8 }));
    display.show(progress({ bytesDone: 10 * MiB, bytesPerSecond: 2 * MiB, etaSeconds: 5 }));
    expect(written[0]).toBe('Sending disc/track.flac (1/2, 10.5 MB)\n');
    expect(written[1]).toMatch(
      /^\r\[#{10}-{30}\] 25% 5\.2 MB of 21\.0 MB, 2\.1 MB\/s, 8 s left\u001b\[K$/,
    );
    expect(written[2]).toMatch(/^\r\[#{20}-{20}\] 50% /);
    expect(written).toHaveLength(3);
  });

  it('a line printed while the bar shows clears the bar first', () => {
    const { written, display } = capture(true);
    display.show(progress({}));
    display.line('Delivered 2 files (21.0 MB).');
    expect(written.slice(-2)).toEqual(['\r\u001b[K', 'Delivered 2 files (21.0 MB).\n']);
  });
});

describe('progress into a pipe is plain lines, at most one every two seconds', () => {
  it('writes no control characters and throttles the lines', () => {
    const { written, display, advance } = capture(false);
    display.show(progress({ bytesDone: 1 * MiB }));
    display.show(progress({ bytesDone: 2 * MiB }));
    advance(2_000);
    display.show(progress({ fileIndex: 2, fileName: 'disc/b.flac', bytesDone: 12 * MiB }));
    expect(written).toEqual([
      'Sending disc/track.flac (1/2, 10.5 MB)\n',
      '5% 1.0 MB of 21.0 MB, 0 B/s\n',
      'Sending disc/b.flac (2/2, 10.5 MB)\n',
      '60% 12.6 MB of 21.0 MB, 0 B/s\n',
    ]);
    expect(written.join('')).not.toMatch(/[\r\u001b]/);
  });
});

describe('status lines', () => {
  it('say a state once, however often it is published, and again once it changed', () => {
    const { written, display } = capture(false);
    display.status('Connecting to the sender of acid-acorn-acre...');
    display.status('Connecting to the sender of acid-acorn-acre...');
    display.status('Retrying the connection…');
    display.status('Connecting to the sender of acid-acorn-acre...');
    expect(written).toEqual([
      'Connecting to the sender of acid-acorn-acre...\n',
      'Retrying the connection…\n',
      'Connecting to the sender of acid-acorn-acre...\n',
    ]);
  });

  it('say where a resumed file picks up as it starts', () => {
    const { written, display } = capture(false);
    display.show(progress({ fileBytes: 4 * MiB, fileResumedBytes: 4 * MiB }));
    expect(written[0]).toBe(
      'Sending disc/track.flac (1/2, 10.5 MB; resuming, 4.2 MB already there)\n',
    );
  });
});
