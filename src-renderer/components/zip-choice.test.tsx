import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok } from '../../src-shared/ipc/result';
import { offerFileViews } from '../../src-shared/transfer/offer-files';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { renderApp } from '../testing/render-app';
import { createScriptedBackend } from '../testing/scripted-backend';

/** The web client's capabilities: downloads by default, which start over; a folder on request. */
const BROWSER = { chooseDestination: true, defaultDestinationResumes: false, revealFiles: false };

const PATHS = ['album/raw/2024/one.cr2', 'album/cover.jpg', 'album/notes.txt'];

function offer(zip: { name: string } | undefined, paths = PATHS): TransferView {
  return {
    phase: 'awaiting-acceptance',
    direction: 'receive',
    offer: {
      firstFileName: paths[0],
      fileCount: paths.length,
      totalBytes: 30,
      files: offerFileViews(
        paths.map((path) => ({ path, size: 10 })),
        'unknown',
      ),
      peerCheck: { kind: 'unverified' },
    },
    destination: 'Your browser’s downloads',
    ...(zip === undefined ? {} : { zip }),
  };
}

function showing(transfer: TransferView) {
  return renderApp(
    createScriptedBackend({ surface: 'browser', capabilities: BROWSER, snapshot: { transfer } }),
  );
}

const zipRadio = () => screen.getByRole('radio', { name: 'One .zip, folders kept album.zip' });
const separateRadio = () =>
  screen.getByRole('radio', { name: 'Separate files (folders flattened)' });

describe('the accept prompt’s .zip choice, where files go to the browser’s downloads', () => {
  it('offers one .zip by default, says it starts over, and answers with it', async () => {
    const { user, backend } = await showing(offer({ name: 'album.zip' }));
    expect((zipRadio() as HTMLInputElement).checked).toBe(true);
    expect((separateRadio() as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByText(/Warning/)).toBeNull();
    expect(
      screen.getByText(
        'The .zip starts over if the connection drops: the browser deletes an unfinished one; a folder chosen with Change picks up where it left off.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(backend.callsOf('answerOffer')).toEqual([[true, undefined, 'zip']]);
  });

  it('warns plainly before flattening into separate files, and answers with them', async () => {
    const { user, backend } = await showing(offer({ name: 'album.zip' }));
    await user.click(separateRadio());
    expect(screen.getByRole('note').textContent).toBe(
      'Warning: the folders are not kept. Each file is saved on its own with its folders in its name (album/raw/2024/one.cr2 becomes album_raw_2024_one.cr2), and the browser may ask before this page saves many files.',
    );
    expect(
      screen.getByText(
        'Downloads start over if the connection drops; a folder chosen with Change picks up where it left off.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(backend.callsOf('answerOffer')).toEqual([[true, undefined, 'separate-files']]);
  });

  it('says only that many downloads may be asked about when no folder is lost', async () => {
    const loose = Array.from({ length: 12 }, (_, index) => `photo-${index}.jpg`);
    const { user } = await showing(offer({ name: 'photo-0-and-11-more.zip' }, loose));
    await user.click(screen.getByRole('radio', { name: 'Separate files, one download each' }));
    expect(screen.getByRole('note').textContent).toBe(
      'The browser may ask before this page saves many files.',
    );
  });

  it('is gone once a folder is chosen, which keeps the folders itself', async () => {
    const backend = createScriptedBackend({
      surface: 'browser',
      capabilities: BROWSER,
      snapshot: { transfer: offer({ name: 'album.zip' }) },
    });
    const { user } = await renderApp(backend);
    backend.respond('chooseDestination', ok('Photos'));
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(screen.queryByRole('radio')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(backend.callsOf('answerOffer')).toEqual([[true, 'Photos']]);
  });

  it('is not shown for an offer that came without it', async () => {
    const { user, backend } = await showing(offer(undefined));
    expect(screen.queryByRole('radio')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(backend.callsOf('answerOffer')).toEqual([[true, undefined]]);
  });
});

function done(extra: Partial<Extract<TransferView, { phase: 'done' }>>, count = 12): TransferView {
  const files = Array.from({ length: count }, (_, index) => ({ name: `f${index}.jpg`, size: 1 }));
  return { phase: 'done', direction: 'receive', files, totalBytes: count, ...extra };
}

describe('the done screen says where the files went', () => {
  it('names the one .zip in the browser’s downloads', async () => {
    await showing(done({ downloads: { archive: 'album.zip' } }));
    expect(screen.getByTestId('saved-to').textContent).toBe(
      'Saved to your browser’s downloads as album.zip.',
    );
  });

  it('counts separate downloads', async () => {
    await showing(done({ downloads: {} }));
    expect(screen.getByTestId('saved-to').textContent).toBe(
      'Saved to your browser’s downloads as 12 separate files.',
    );
  });

  it('names the only download of a single file', async () => {
    await showing(done({ downloads: {} }, 1));
    expect(screen.getByTestId('saved-to').textContent).toBe(
      'Saved to your browser’s downloads as f0.jpg.',
    );
  });

  it('leaves a chosen folder to the summary, which names it', async () => {
    await showing(done({ folder: 'Photos' }));
    expect(screen.queryByTestId('saved-to')).toBeNull();
    expect(screen.getByText('12 files, 12 B saved in Photos.')).toBeTruthy();
  });
});
