import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OfferView, TransferView } from '../../src-shared/transfer/transfer-view';
import { renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

// docs/protocol.md, "The name shown": the prompt's first line says who sends, its check beside it.
const offering = (offer: Partial<OfferView>): Promise<unknown> => {
  const transfer: TransferView = {
    phase: 'awaiting-acceptance',
    direction: 'receive',
    offer: {
      firstFileName: 'a.txt',
      fileCount: 1,
      totalBytes: 5,
      peerCheck: { kind: 'words', words: 'acid otter plank' },
      ...offer,
    },
    destination: '/home/ana/Downloads',
  };
  return renderApp(createScriptedBackend({ snapshot: { transfer } }));
};

/** The prompt's lines after its heading, in order. */
function firstLines(): string[] {
  const heading = screen.getByRole('heading', { name: /^Incoming/ });
  const lines: string[] = [];
  for (let line = heading.nextElementSibling; line !== null; line = line.nextElementSibling) {
    lines.push(line.textContent ?? '');
  }
  return lines.slice(0, 2);
}

describe('the accept prompt names the sender first', () => {
  it('by the name it gave, with the words right below', async () => {
    await offering({ announcedName: 'Firefox on Linux' });
    expect(screen.getByTestId('peer-name').textContent).toBe('From Firefox on Linux');
    expect(firstLines()).toEqual([
      'From Firefox on Linux',
      'Verification words: acid otter plank — check the other device shows the same',
    ]);
  });

  it('by its remembered name, whatever it calls itself, and only once says it is remembered', async () => {
    await offering({
      announcedName: 'Mallory',
      peerCheck: { kind: 'device', name: 'Bea phone', fingerprint: 'sha-256 AA' },
    });
    expect(firstLines()).toEqual([
      'From Bea phone',
      'Remembered device “Bea phone” — verified automatically',
    ]);
    expect(screen.getAllByTestId('peer-check')).toHaveLength(1);
  });

  it('says so when the sender gave no name, and for a text message too', async () => {
    await offering({ textMessage: true, peerCheck: { kind: 'unverified' } });
    expect(firstLines()[0]).toBe('From a device that gave no name');
  });
});
