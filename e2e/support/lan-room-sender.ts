// Run inside a network namespace by the LAN-only test: the desktop app's controller hosts a LAN
// room on `address` and sends `path` through it, printing the room URL, the code and the outcome.
import { createDesktopController } from '../../src-main/desktop/desktop-controller';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { testControllerOptions } from './desktop-bridge/test-controller-options';

const [address, path] = process.argv.slice(2);
const controller = await createDesktopController(testControllerOptions({ lanAddress: address }));

const finished = new Promise<number>((done) => {
  controller.onEvent((channel, payload) => {
    if (channel !== 'transferState') return;
    const view = payload as TransferView;
    if (view.phase === 'waiting-for-peer') console.log(`Code: ${view.code}`);
    if (view.phase === 'done') done(0);
    if (view.phase === 'failed') {
      console.log(`Failed: ${view.message}`);
      done(1);
    }
  });
});

const room = await controller.handlers.setLanRoom({ enabled: true });
if (room.state !== 'on') {
  console.log(`Room failed: ${JSON.stringify(room)}`);
  process.exit(1);
}
console.log(`Room: ${room.url}`);
// Handed to the app as "Open with" would: main trusts only paths it was given.
controller.openPaths([path]);
await controller.handlers.startSend({ paths: [path] });
const code = await finished;
await controller.close();
process.exit(code);
