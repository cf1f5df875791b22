import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { offerFileViews } from '../../src-shared/transfer/offer-files';
import type { PeerCheck, TransferView } from '../../src-shared/transfer/transfer-view';
import { OFFER } from '../testing/fixtures';
import { renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

const showing = (transfer: TransferView) =>
  renderApp(createScriptedBackend({ snapshot: { transfer } }));

const LISTED = offerFileViews(
  [
    { path: 'Album/beach.jpg', size: 4_194_304 },
    { path: 'Album/.thumbs/cache.db', size: 2048 },
    { path: 'Album/slideshow.scr', size: 1024 },
    { path: 'Album/notes.txt', size: 10 },
  ],
  'windows',
);

function listedOffer(fileCount = LISTED.length): TransferView {
  return {
    phase: 'awaiting-acceptance',
    direction: 'receive',
    offer: {
      firstFileName: 'Album/beach.jpg',
      fileCount,
      totalBytes: 4_197_386,
      files: LISTED,
      peerCheck: { kind: 'unverified' },
    },
    destination: '/home/ana/Downloads',
  };
}

describe('the accept prompt with a listed offer', () => {
  it('lists every file with its size as a tree of its folders, in a list that scrolls and takes the keyboard focus', async () => {
    const { user } = await showing(listedOffer());
    const list = screen.getByRole('list', { name: 'Offered files' });
    const rows = within(list).getAllByRole('listitem');
    const line = (row: HTMLElement) =>
      `${row.querySelector(':scope > .file-name')?.textContent} ${row.querySelector(':scope > .file-size')?.textContent}`;
    expect(rows.map(line)).toEqual([
      'Album/ 4 files, 4.2 MB',
      'beach.jpg 4.2 MB',
      '.thumbs/ 1 file, 2.0 kB',
      'cache.db 2.0 kB',
      'slideshow.scr 1.0 kB',
      'notes.txt 10 B',
    ]);
    const thumbs = within(list).getByRole('list', { name: 'In .thumbs' });
    expect(within(thumbs).getByText('cache.db')).toBeTruthy();
    expect(list.classList.contains('file-list')).toBe(true);
    // Reached with Tab, so a keyboard can scroll it: after the heading, before any button.
    await user.click(screen.getByRole('heading', { name: 'Incoming files' }));
    await user.tab();
    expect(document.activeElement).toBe(list);
  });

  it('flags hidden files and programs, and nothing else', async () => {
    await showing(listedOffer());
    const rows = within(screen.getByRole('list', { name: 'Offered files' })).getAllByRole(
      'listitem',
    );
    const flags = rows.map((row) =>
      Array.from(row.querySelectorAll(':scope > .file-flag'), (flag) => flag.textContent),
    );
    expect(flags).toEqual([[], [], [], ['hidden'], ['executable'], []]);
  });

  it('counts the flagged files above the list, where a long list cannot hide them', async () => {
    await showing(listedOffer());
    const summary = screen.getByText('Look before accepting: 1 hidden and 1 executable.');
    const list = screen.getByRole('list', { name: 'Offered files' });
    expect(summary.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says how many files a list cut short left out', async () => {
    await showing(listedOffer(LISTED.length + 2));
    expect(screen.getByText('The sending device did not list 2 more files.')).toBeTruthy();
  });

  it('against a sender that did not list, says only the first name is known', async () => {
    await showing(OFFER);
    expect(screen.queryByRole('list', { name: 'Offered files' })).toBeNull();
    expect(
      screen.getByText('Only the first name is known: the sending device did not list its files.'),
    ).toBeTruthy();
  });
});

/** The fixture's offer, with another peer check. */
function offerChecked(peerCheck: PeerCheck): TransferView {
  if (OFFER.phase !== 'awaiting-acceptance') throw new Error('the fixture is an offer');
  return { ...OFFER, offer: { ...OFFER.offer, peerCheck } };
}

describe('the accept prompt and the verification words', () => {
  it('shows the words to compare before Accept', async () => {
    await showing(OFFER);
    const line = screen.getByTestId('peer-check');
    expect(line.textContent).toBe(
      'Verification words: plum otter cask — check the other device shows the same',
    );
    const accept = screen.getByRole('button', { name: 'Accept' });
    expect(line.compareDocumentPosition(accept) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says the secret link verified the sender, with no words to compare', async () => {
    await showing(offerChecked({ kind: 'link' }));
    expect(screen.getByTestId('peer-check').textContent).toBe(
      'Verified automatically: the secret link matched',
    );
    expect(screen.queryByText(/^Verification words/)).toBeNull();
  });

  it('says plainly when the sending device cannot be verified', async () => {
    await showing(listedOffer());
    expect(screen.getByTestId('peer-check').textContent).toBe(
      'Not verified: the other device cannot show verification words.',
    );
    expect(screen.queryByText(/^Verification words/)).toBeNull();
  });
});

describe('the accept prompt on a page opened over plain HTTP', () => {
  const onPlainHttp = (transfer: TransferView) =>
    renderApp(
      createScriptedBackend({
        snapshot: { transfer },
        capabilities: {
          chooseDestination: false,
          defaultDestinationResumes: false,
          plainHttpLimits: ['choose-folder', 'stream-downloads', 'notify'],
        },
      }),
    );

  it('says what this page cannot do with the files and what would lift it', async () => {
    await onPlainHttp(listedOffer());
    expect(screen.getByTestId('plain-http-limits').textContent).toBe(
      'This page was opened over plain HTTP, so the browser does not let it save into a folder you choose, nor stream downloads to disk as they arrive. Opened over https or from localhost it may; the Ferry desktop app always can.',
    );
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
  });

  it('says nothing of plain HTTP on a page that was not opened over it', async () => {
    await showing(listedOffer());
    expect(screen.queryByTestId('plain-http-limits')).toBeNull();
  });
});
