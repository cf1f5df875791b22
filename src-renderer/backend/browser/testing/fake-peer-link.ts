import type { PeerLink } from '../peer-connection';

/**
 * jsdom has no WebRTC, so the drivers' unit tests run over this stand-in for an open data channel:
 * it records every frame sent, lets the test set the send buffer as the network would drain it,
 * and delivers frames from the peer. End-to-end tests run the same drivers on Chromium's own.
 */
export class FakeChannel extends EventTarget {
  readyState: RTCDataChannelState = 'open';
  binaryType: BinaryType = 'arraybuffer';
  bufferedAmount = 0;
  bufferedAmountLowThreshold = 0;
  readonly sent: (string | Uint8Array)[] = [];

  send(data: string | ArrayBufferView): void {
    if (this.readyState !== 'open') throw new DOMException('closed', 'InvalidStateError');
    if (typeof data === 'string') {
      this.sent.push(data);
      this.bufferedAmount += data.length;
      return;
    }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    this.sent.push(bytes);
    this.bufferedAmount += bytes.byteLength;
  }

  /** The network took bytes off the buffer: it now holds `bytes`. */
  drainTo(bytes: number): void {
    const crossed = this.bufferedAmount > this.bufferedAmountLowThreshold;
    this.bufferedAmount = bytes;
    if (crossed && bytes <= this.bufferedAmountLowThreshold) {
      this.dispatchEvent(new Event('bufferedamountlow'));
    }
  }

  /** A frame from the peer. */
  receive(data: string | Uint8Array): void {
    // Copied with this realm's Uint8Array: jsdom's TextEncoder answers in another realm's types.
    const payload = typeof data === 'string' ? data : new Uint8Array(data).buffer;
    this.dispatchEvent(new MessageEvent('message', { data: payload }));
  }

  close(): void {
    if (this.readyState === 'closed') return;
    this.readyState = 'closed';
    this.dispatchEvent(new Event('close'));
  }

  get textFrames(): string[] {
    return this.sent.filter((frame): frame is string => typeof frame === 'string');
  }

  get binaryFrames(): Uint8Array[] {
    return this.sent.filter((frame): frame is Uint8Array => typeof frame !== 'string');
  }
}

export class FakeConnection extends EventTarget {
  connectionState: RTCPeerConnectionState = 'connected';
  readonly sctp: { maxMessageSize: number } | null;

  constructor(maxMessageSize: number | undefined) {
    super();
    this.sctp = maxMessageSize === undefined ? null : { maxMessageSize };
  }

  close(): void {
    this.connectionState = 'closed';
  }
}

export function fakeLink(maxMessageSize?: number): PeerLink & { channel: FakeChannel } {
  const channel = new FakeChannel();
  const pc = new FakeConnection(maxMessageSize);
  return {
    channel,
    pc: pc as unknown as RTCPeerConnection,
    relayed: () => Promise.resolve(false),
    close: () => {
      channel.close();
      pc.close();
    },
  } as unknown as PeerLink & { channel: FakeChannel };
}
