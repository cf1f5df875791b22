import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeControlJson, encodeMessage, fitIncompatible } from './encode';
import { frameByteLength, utf8ByteLength, type Frame } from './frame';
import { classifyFrameFromReceiver, classifyFrameFromSender } from './frame-classification';
import type { AckMessage, IncompatibleMessage, MetadataMessage, ReceiverMessage } from './messages';

const utf8 = new TextEncoder();

function textOf(frame: Frame): string {
  return frame.kind === 'text' ? frame.text : new TextDecoder().decode(frame.bytes);
}

const METADATA: MetadataMessage = {
  type: 'metadata',
  id: 'f-1',
  fileName: 'holiday/photos/beach.jpg',
  fileSize: 5_000_000,
  index: 2,
  total: 3,
  totalBytes: 9_000_000,
  pv: 1,
  pvMin: 1,
  ver: '1.6.0',
};

describe('message tables: each message encodes with exactly the spec fields', () => {
  it('metadata carries type, id, fileName, fileSize, index, total, totalBytes, pv, pvMin, ver', () => {
    expect(encodeMessage(METADATA, 'text')).toEqual({
      kind: 'text',
      text:
        '{"type":"metadata","id":"f-1","fileName":"holiday/photos/beach.jpg","fileSize":5000000,' +
        '"index":2,"total":3,"totalBytes":9000000,"pv":1,"pvMin":1,"ver":"1.6.0"}',
    });
  });

  it('metadata leaves out the optional pv, pvMin and ver when absent (browser peers omit ver)', () => {
    const { pv: _pv, pvMin: _pvMin, ver: _ver, ...required } = METADATA;
    expect(encodeControlJson(required)).toBe(
      '{"type":"metadata","id":"f-1","fileName":"holiday/photos/beach.jpg","fileSize":5000000,' +
        '"index":2,"total":3,"totalBytes":9000000}',
    );
  });

  it('ack carries type, id, offset, pv, pvMin, ver', () => {
    const ack: AckMessage = { type: 'ack', id: 'f-1', offset: 0, pv: 1, pvMin: 1, ver: 'dev' };
    expect(encodeControlJson(ack)).toBe(
      '{"type":"ack","id":"f-1","offset":0,"pv":1,"pvMin":1,"ver":"dev"}',
    );
  });

  it('end is type end and nothing else', () => {
    expect(encodeMessage({ type: 'end' }, 'text')).toEqual({
      kind: 'text',
      text: '{"type":"end"}',
    });
  });

  it('received is type received and nothing else', () => {
    expect(encodeControlJson({ type: 'received' })).toBe('{"type":"received"}');
  });

  it('incompatible carries type, reason, pv, pvMin, ver', () => {
    expect(
      encodeControlJson({
        type: 'incompatible',
        reason: 'a.txt changed',
        pv: 1,
        pvMin: 1,
        ver: 'desktop-v1.6.0',
      }),
    ).toBe(
      '{"type":"incompatible","reason":"a.txt changed","pv":1,"pvMin":1,"ver":"desktop-v1.6.0"}',
    );
  });

  it('a binary frame carries the same JSON as UTF-8 bytes', () => {
    const frame = encodeMessage({ type: 'ack', id: 'é', offset: 0 }, 'binary');
    expect(frame).toEqual({
      kind: 'binary',
      bytes: utf8.encode('{"type":"ack","id":"é","offset":0}'),
    });
  });
});

describe('incompatible rule 4: the whole encoded frame, reason included, stays within 1000 bytes', () => {
  const base = { type: 'incompatible', pv: 1, pvMin: 1, ver: '1.6.0' } as const;
  const emptyFrameBytes = utf8ByteLength(encodeControlJson({ ...base, reason: '' }));

  it('a long ASCII reason is cut to fill exactly 1000 bytes', () => {
    const frame = encodeMessage({ ...base, reason: 'a'.repeat(5000) }, 'binary');
    expect(frameByteLength(frame)).toBe(1000);
    expect(JSON.parse(textOf(frame))).toEqual({
      ...base,
      reason: 'a'.repeat(1000 - emptyFrameBytes),
    });
  });

  it('a reason that fits is sent whole', () => {
    expect(
      fitIncompatible({ ...base, reason: 'x'.repeat(1000 - emptyFrameBytes) }).reason,
    ).toHaveLength(1000 - emptyFrameBytes);
  });

  it('a cut never splits a multi-byte character', () => {
    const frame = encodeMessage({ ...base, reason: '€'.repeat(400) }, 'text');
    const reason = (JSON.parse(textOf(frame)) as IncompatibleMessage).reason;
    expect(reason).toBe('€'.repeat(Math.floor((1000 - emptyFrameBytes) / 3)));
  });

  it('a cut never splits a surrogate pair', () => {
    const reason = fitIncompatible({ ...base, reason: '😀'.repeat(300) }).reason;
    expect(reason).toBe('😀'.repeat(Math.floor((1000 - emptyFrameBytes) / 4)));
  });

  it('JSON escaping counts against the limit', () => {
    const frame = encodeMessage({ ...base, reason: '"\\\n\u0001'.repeat(300) }, 'binary');
    expect(frameByteLength(frame)).toBeLessThanOrEqual(1000);
    expect(frameByteLength(frame)).toBeGreaterThan(1000 - 6);
  });

  it('a release string too long to leave room is dropped before the reason', () => {
    const message = fitIncompatible({ ...base, ver: 'v'.repeat(2000), reason: 'stopped' });
    expect(message).toEqual({ type: 'incompatible', reason: 'stopped', pv: 1, pvMin: 1 });
  });

  const reasonText = fc.string({
    unit: fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom('\ud83d', '\ude00', '"', '\\', '\n', '\u0000', '\u2028', '€', '😀'),
    ),
    maxLength: 1500,
  });

  it('no incompatible frame ever exceeds 1000 bytes, in either framing', () => {
    fc.assert(
      fc.property(
        reasonText,
        fc.option(fc.string({ unit: 'binary', maxLength: 1200 }), { nil: undefined }),
        fc.constantFrom('text' as const, 'binary' as const),
        (reason, ver, framing) => {
          const frame = encodeMessage(
            { type: 'incompatible', reason, pv: 1, pvMin: 1, ver },
            framing,
          );
          expect(frameByteLength(frame)).toBeLessThanOrEqual(1000);
        },
      ),
    );
  });

  it('the cut reason is the longest whole-code-point prefix that fits', () => {
    fc.assert(
      fc.property(reasonText, (reason) => {
        const kept = fitIncompatible({ ...base, reason }).reason;
        expect(reason.startsWith(kept)).toBe(true);
        if (kept !== reason) {
          const next = String.fromCodePoint(reason.codePointAt(kept.length) ?? 0);
          const longer = encodeControlJson({ ...base, reason: kept + next });
          expect(utf8ByteLength(longer)).toBeGreaterThan(1000);
        }
      }),
    );
  });
});

describe('encode and decode round-trip', () => {
  const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
  const optionalVersion = fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined });
  const optionalVer = fc.option(fc.string({ unit: 'binary', maxLength: 20 }), { nil: undefined });

  function withoutUndefined<T extends object>(value: T): T {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
  }

  it('metadata read by a native or browser receiver is the metadata sent', () => {
    fc.assert(
      fc.property(
        fc.record({
          id: fc.string({ unit: 'binary', maxLength: 20 }),
          fileName: name,
          fileSize: fc.maxSafeNat(),
          index: fc.integer({ min: 1, max: 1000 }),
          extra: fc.nat(1000),
          totalBytes: fc.maxSafeNat(),
          pv: optionalVersion,
          pvMin: optionalVersion,
          ver: optionalVer,
        }),
        fc.constantFrom('native' as const, 'browser' as const),
        ({ extra, ...fields }, receiver) => {
          const metadata = withoutUndefined<MetadataMessage>({
            type: 'metadata',
            ...fields,
            total: fields.index + extra,
          });
          expect(classifyFrameFromSender(encodeMessage(metadata, 'text'), receiver)).toEqual({
            kind: 'control',
            message: metadata,
          });
        },
      ),
    );
  });

  it('end and incompatible read back from text frames', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 100 }),
        optionalVersion,
        optionalVersion,
        optionalVer,
        (reason, pv, pvMin, ver) => {
          const incompatible = withoutUndefined<IncompatibleMessage>({
            type: 'incompatible',
            reason,
            pv,
            pvMin,
            ver,
          });
          for (const message of [{ type: 'end' } as const, incompatible]) {
            expect(classifyFrameFromSender(encodeMessage(message, 'text'), 'browser')).toEqual({
              kind: 'control',
              message,
            });
          }
        },
      ),
    );
  });

  it('ack, received and incompatible read back from either framing', () => {
    const receiverMessage: fc.Arbitrary<ReceiverMessage> = fc.oneof(
      fc
        .record({
          id: fc.string({ unit: 'binary', maxLength: 40 }),
          offset: fc.maxSafeNat(),
          pv: optionalVersion,
          pvMin: optionalVersion,
          ver: optionalVer,
        })
        .map((fields) => withoutUndefined<AckMessage>({ type: 'ack', ...fields })),
      fc.constant({ type: 'received' } as const),
      fc
        .record({ reason: fc.string({ unit: 'binary', maxLength: 100 }), pv: optionalVersion })
        .map((fields) =>
          withoutUndefined<IncompatibleMessage>({ type: 'incompatible', ...fields }),
        ),
    );
    fc.assert(
      fc.property(
        receiverMessage,
        fc.constantFrom('text' as const, 'binary' as const),
        (message, framing) => {
          expect(classifyFrameFromReceiver(encodeMessage(message, framing))).toEqual({
            kind: 'control',
            message,
          });
        },
      ),
    );
  });
});
