// A third device that learned a batch's code, as a program of its own (so that it can run inside
// a test's network namespace): it waits in the room a lost link's reconnect would use if that
// room were derived from the transfer's room alone, and says so when a peer connects to it.
// Usage: restored-room-impostor.ts SERVER-URL CODE
import { waitInRestoredRoom } from '../../src-main/engine/test-support/restored-link-impostor';

const [serverUrl = '', code = ''] = process.argv.slice(2);
const impostor = await waitInRestoredRoom(serverUrl, code);
console.log('waiting in the restored room');
impostor.met.then(
  () => console.log('a peer connected to the impostor'),
  () => undefined,
);
