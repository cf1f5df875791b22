import { browseRooms } from '../room-browser';

// A room list as its own program: prints the whole list on every change until SIGTERM.
// Usage: browse-rooms-process.ts <address>
const [address] = process.argv.slice(2);

const browser = await browseRooms({
  address,
  onRooms: (rooms) => console.log(`rooms ${JSON.stringify(rooms)}`),
});
console.log('browsing');
process.once('SIGTERM', () => {
  void browser.close().then(() => console.log('closed'));
});
