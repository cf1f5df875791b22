import type { HttpPort } from '../../../src-shared/http/request-json';
import { SignalingRequests } from '../../../src-shared/http/signaling-requests';
import { browserClock } from './browser-clock';

/** The shared HTTP requests on the browser's own fetch. */
export const browserHttp: HttpPort = {
  fetch: (url, init) => fetch(url, init),
  clock: browserClock,
};

export function browserSignalingRequests(signalingAddress: string): SignalingRequests {
  return new SignalingRequests(signalingAddress, browserHttp);
}
