import { afterEach, describe, expect, it, vi } from 'vitest';
import { CAPABILITIES } from '../protocol/messages';
import { offeredCapabilities } from './capabilities';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the extensions a runtime offers (docs/protocol.md, "Capabilities")', () => {
  it('are every one but lanes on a page without WebCrypto, as on a secure page', () => {
    const secure = offeredCapabilities();
    // A page on plain http: browsers withhold `crypto.subtle`, never getRandomValues.
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => bytes });
    expect(globalThis.crypto.subtle).toBeUndefined();
    expect(offeredCapabilities()).toEqual(secure);
    expect(offeredCapabilities()).toEqual(
      CAPABILITIES.filter((cap) => cap !== 'lanes' && cap !== 'lane-mtu'),
    );
    expect(offeredCapabilities(true, { lanes: true })).toEqual(CAPABILITIES);
  });

  it('are none when extensions are turned off', () => {
    expect(offeredCapabilities(false)).toEqual([]);
  });
});
