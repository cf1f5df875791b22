import { findRooms } from '../room-browser';

// The command line's one-shot search as its own program; it must exit by itself.
// Usage: find-rooms-process.ts <address> <timeoutMs> [settleMs]
const [address, timeoutMs, settleMs] = process.argv.slice(2);

const rooms = await findRooms({
  address,
  timeoutMs: Number(timeoutMs),
  settleMs: settleMs === undefined ? undefined : Number(settleMs),
});
console.log(`found ${JSON.stringify(rooms)}`);
