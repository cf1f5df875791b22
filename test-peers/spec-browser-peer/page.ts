// The browser spec peer's page script (bundled by index.ts): the same strict peer as
// test-peers/spec-peer/, on the page's RTCPeerConnection and the event socket, talking to the
// signaling server named by the page's `server` query parameter. Tests drive it through
// `globalThis.specPeer`.
import { runReceive, runSend, type SpecRuntime } from '../spec-peer/run-peer';
import { createBrowserPeer } from './browser-peer';
import { MemorySink, pageSources } from './memory-files';
import type { SpecBrowserPeerApi } from './page-api';
import { createSocketIoSeat } from './socket-io-seat';

const BROWSER: SpecRuntime = {
  createSeat: createSocketIoSeat,
  createPeer: createBrowserPeer,
  // Chromium's answer carries its own maximum message size; the spec's fix-up is for native
  // stacks, whose answer may lack it, and a browser must not claim more than it takes.
  raiseAnswerMaxMessageSize: false,
};

const { href } = (globalThis as unknown as { location: { href: string } }).location;
const serverUrl = new URL(href).searchParams.get('server') ?? new URL(href).origin;
let sending: ReturnType<typeof runSend> | undefined;

const api: SpecBrowserPeerApi = {
  startSend: ({ files, profile }) =>
    new Promise<string>((resolve, reject) => {
      sending = runSend(BROWSER, {
        serverUrl,
        files: pageSources(files),
        profile,
        onCode: resolve,
      });
      sending.catch(reject);
    }),
  finishSend: () => {
    if (!sending) return Promise.reject(new Error('startSend was not called'));
    return sending;
  },
  receive: ({ code, profile }) =>
    runReceive(BROWSER, { serverUrl, code, profile, sink: new MemorySink() }),
};

(globalThis as unknown as { specPeer: SpecBrowserPeerApi }).specPeer = api;
