import { describe, expect, it } from 'vitest';
import { certificatesInUse } from './transport-certificates';

// docs/protocol.md, "Connection requirement": a browser's remote certificate is the one its
// transport stats name, not a line of its remote description. The stats are shaped as Chromium
// 156 and Firefox ESR 153 report them for an open data channel.
const OWN = 'AA:01:02:03';
const USED = 'BB:04:05:06';
const LISTED = 'CC:07:08:09';
const sdpListing = (...prints: string[]): string =>
  ['v=0', 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel', 'a=mid:0']
    .concat(
      prints.map((print) => `a=fingerprint:sha-256 ${print}`),
      [''],
    )
    .join('\r\n');

const chromiumStats = [
  { id: `CF${OWN}`, type: 'certificate', fingerprint: OWN, fingerprintAlgorithm: 'sha-256' },
  { id: `CF${USED}`, type: 'certificate', fingerprint: USED, fingerprintAlgorithm: 'sha-256' },
  {
    id: 'T01',
    type: 'transport',
    dtlsState: 'connected',
    localCertificateId: `CF${OWN}`,
    remoteCertificateId: `CF${USED}`,
  },
  { id: 'D1', type: 'data-channel' },
];
const firefoxStats = [
  { id: '27a5e1a2', type: 'transport', dtlsState: 'connected', dtlsRole: 'server' },
  { id: 'dc', type: 'data-channel' },
];

describe('the certificates a browser connection used', () => {
  it('takes the remote certificate DTLS used from the stats, whatever the description lists', () => {
    expect(
      certificatesInUse(chromiumStats, {
        localSdp: sdpListing(OWN),
        remoteSdp: sdpListing(LISTED),
      }),
    ).toEqual({ local: `sha-256 ${OWN}`, remote: `sha-256 ${USED}` });
  });

  it('has none when the stats name a remote certificate they do not list', () => {
    const missing = chromiumStats.filter(({ id }) => id !== `CF${USED}`);
    expect(
      certificatesInUse(missing, { localSdp: sdpListing(OWN), remoteSdp: sdpListing(USED) }),
    ).toBeUndefined();
  });

  it('without certificate stats, takes the description’s line only when it is the only one', () => {
    expect(
      certificatesInUse(firefoxStats, { localSdp: sdpListing(OWN), remoteSdp: sdpListing(USED) }),
    ).toEqual({ local: `sha-256 ${OWN}`, remote: `sha-256 ${USED}` });
    expect(
      certificatesInUse(firefoxStats, {
        localSdp: sdpListing(OWN),
        remoteSdp: sdpListing(LISTED, USED),
      }),
    ).toBeUndefined();
    expect(
      certificatesInUse([], { localSdp: sdpListing(OWN), remoteSdp: sdpListing() }),
    ).toBeUndefined();
  });
});
