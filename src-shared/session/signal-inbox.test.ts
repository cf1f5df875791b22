import { describe, expect, it } from 'vitest';
import type { SignalingEvent } from './ports';
import { SignalInbox } from './signal-inbox';

const offer: SignalingEvent = { type: 'signal', payload: { type: 'offer', sdp: 'x' } };

describe('a signaling seat’s inbox', () => {
  it('keeps what arrives before anyone listens and hands it over in order', () => {
    const inbox = new SignalInbox();
    inbox.deliver({ type: 'user-connected' });
    inbox.deliver(offer);
    const seen: SignalingEvent[] = [];
    inbox.listen((event) => seen.push(event));
    inbox.deliver({ type: 'peer-disconnected' });
    expect(seen).toEqual([{ type: 'user-connected' }, offer, { type: 'peer-disconnected' }]);
  });

  it('keeps events again once nobody listens, for the next listener', () => {
    const inbox = new SignalInbox();
    const first: SignalingEvent[] = [];
    const stop = inbox.listen((event) => first.push(event));
    inbox.deliver({ type: 'user-connected' });
    stop();
    inbox.deliver(offer);
    const second: SignalingEvent[] = [];
    inbox.listen((event) => second.push(event));
    expect(first).toEqual([{ type: 'user-connected' }]);
    expect(second).toEqual([offer]);
  });
});
