import { describe, expect, it } from 'vitest';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { entryFromDone } from '../../src-shared/history/transfer-history';
import {
  ChosenPaths,
  isOpenableFolder,
  isRecordedFile,
  isRecordedFolder,
  isRevealableFile,
} from './path-allowlist';

const RECEIVED: TransferView = {
  phase: 'done',
  direction: 'receive',
  folder: '/home/ana/Downloads',
  totalBytes: 3,
  files: [{ name: 'a.txt', size: 3, savedPath: '/home/ana/Downloads/a.txt' }],
};

describe('the path allowlist', () => {
  it('holds exactly the paths handed out, however they are spelled', () => {
    const chosen = new ChosenPaths();
    chosen.add(['/home/ana/Photos/', '/home/ana/notes.txt']);
    expect(chosen.unchosen(['/home/ana/Photos', '/home/ana/./notes.txt'])).toEqual([]);
    expect(chosen.unchosen(['/home/ana/Photos/../.ssh', '/home/ana'])).toEqual([
      '/home/ana/Photos/../.ssh',
      '/home/ana',
    ]);
  });

  it('opens only the folder a finished receive saved into', () => {
    expect(isOpenableFolder(RECEIVED, '/home/ana/Downloads/')).toBe(true);
    expect(isOpenableFolder(RECEIVED, '/home/ana/.config/autostart')).toBe(false);
    expect(isOpenableFolder({ ...RECEIVED, direction: 'send' }, '/home/ana/Downloads')).toBe(false);
    expect(isOpenableFolder({ phase: 'idle' }, '/home/ana/Downloads')).toBe(false);
  });

  it('shows only the files a finished receive saved', () => {
    expect(isRevealableFile(RECEIVED, '/home/ana/Downloads/a.txt')).toBe(true);
    expect(isRevealableFile(RECEIVED, '/home/ana/Downloads/b.exe')).toBe(false);
    expect(isRevealableFile({ phase: 'idle' }, '/home/ana/Downloads/a.txt')).toBe(false);
  });

  it('opens and shows again only what an entry of the history saved', () => {
    if (RECEIVED.phase !== 'done') throw new Error('RECEIVED is a finished receive');
    const history = [entryFromDone(RECEIVED, 1, 'one')];
    expect(isRecordedFolder(history, '/home/ana/Downloads/')).toBe(true);
    expect(isRecordedFolder(history, '/home/ana/.config/autostart')).toBe(false);
    expect(isRecordedFile(history, '/home/ana/Downloads/./a.txt')).toBe(true);
    expect(isRecordedFile(history, '/home/ana/Downloads/b.exe')).toBe(false);
    const sent = [{ ...history[0], direction: 'send' as const }];
    expect(isRecordedFolder(sent, '/home/ana/Downloads')).toBe(false);
    expect(isRecordedFile(sent, '/home/ana/Downloads/a.txt')).toBe(false);
    expect(isRecordedFolder([], '/home/ana/Downloads')).toBe(false);
  });
});
