import { CHROMIUM_INSTALL_HINT, findChromium } from './chromium';

export default function globalSetup(): void {
  if (!findChromium()) console.log(CHROMIUM_INSTALL_HINT);
}
