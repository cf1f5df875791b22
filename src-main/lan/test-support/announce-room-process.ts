import { LanError } from '../lan-error';
import { announceRoom } from '../room-announcer';

// A hosted room as its own program, so a test can run it inside a network namespace.
// Usage: announce-room-process.ts <address> <port> [name]
const [address = '', port = '', name] = process.argv.slice(2);

try {
  const announcer = await announceRoom({ address, port: Number(port), name });
  console.log(`announced ${JSON.stringify({ name: announcer.name, url: announcer.url })}`);
  process.once('SIGTERM', () => {
    void announcer.close().then(() => console.log('withdrawn'));
  });
} catch (error) {
  console.log(`failed ${error instanceof LanError ? error.code : String(error)}`);
  process.exitCode = 1;
}
