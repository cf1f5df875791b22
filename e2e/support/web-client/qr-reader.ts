import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Locator } from '@playwright/test';

/** What a phone's camera would read from the QR code on screen: the text it encodes. */
export async function readQrCode(qr: Locator): Promise<string | undefined> {
  const image = PNG.sync.read(await qr.screenshot());
  const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  return found?.data;
}
