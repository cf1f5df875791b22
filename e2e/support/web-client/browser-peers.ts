import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../chromium';
import { pickFoldersPrivately } from './chosen-folder';
import { SHOW_HOST_ADDRESSES } from './chromium-flags';
import { FerryPage } from './ferry-page';

/** A second Chromium whose candidates carry real addresses (the default one hides them with mDNS). */
export function launchWithHostAddresses(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [...CHROMIUM_ARGS, SHOW_HOST_ADDRESSES],
  });
}

export interface PeerOptions extends BrowserContextOptions {
  /** Lets the page "choose" a folder for received files (see chosen-folder.ts). */
  choosesFolder?: boolean;
  /** Makes the page advertise this protocol range (the backend's test seam). */
  peerVersion?: { pv: number; pvMin: number };
}

/** One browser peer: its own context (storage, service worker, downloads) on the web client. */
export async function openPeer(
  browser: Browser,
  url: string,
  options: PeerOptions = {},
): Promise<FerryPage> {
  const { choosesFolder, peerVersion, ...contextOptions } = options;
  const context = await browser.newContext({ acceptDownloads: true, ...contextOptions });
  if (choosesFolder) await pickFoldersPrivately(context);
  if (peerVersion) {
    await context.addInitScript((range) => {
      Object.defineProperty(window, '__FERRY_PEER_VERSION__', { value: range });
    }, peerVersion);
  }
  const downloads = mkdtempSync(join(tmpdir(), 'ferry-downloads-'));
  return new FerryPage(await context.newPage(), downloads).open(url);
}
