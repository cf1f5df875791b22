import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

// docs/protocol.md, "The name shown": the other device is named on each step after the prompt.
const showing = (transfer: TransferView) =>
  renderApp(createScriptedBackend({ snapshot: { transfer } }));

const WORDS = { kind: 'words', words: 'acid otter plank' } as const;

describe('the other device named on the sender’s steps and the done screens', () => {
  it('waits for it by name once its answer named it', async () => {
    await showing({
      phase: 'waiting-for-acceptance',
      direction: 'send',
      code: 'a-b-c',
      peerCheck: WORDS,
      announcedName: 'Bea phone',
    });
    expect(screen.getByRole('heading', { name: 'Waiting for Bea phone to accept' })).toBeTruthy();
  });

  it('sends to it by name while the files move', async () => {
    await showing({
      phase: 'transferring',
      direction: 'send',
      announcedName: 'Bea phone',
      progress: {
        fileIndex: 1,
        fileCount: 1,
        fileName: 'a.txt',
        fileBytes: 1,
        fileSize: 2,
        bytesDone: 1,
        totalBytes: 2,
        bytesPerSecond: 1,
      },
    });
    expect(screen.getByRole('heading', { name: 'Sending to Bea phone' })).toBeTruthy();
  });

  it('says whom the files came from, by the remembered name before the announced one', async () => {
    await showing({
      phase: 'done',
      direction: 'receive',
      files: [{ name: 'a.txt', size: 2 }],
      totalBytes: 2,
      peer: {
        fingerprint: 'sha-256 AA',
        check: { kind: 'device', name: 'Ana laptop', fingerprint: 'sha-256 AA' },
        announcedName: 'Mallory',
      },
    });
    expect(screen.getByTestId('peer-name').textContent).toBe('Received from Ana laptop');
  });
});
