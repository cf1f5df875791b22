import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryFrame, textFrame, type Frame } from './frame';
import { classifyFrameFromReceiver, classifyFrameFromSender } from './frame-classification';

const utf8 = new TextEncoder();
const json = (value: unknown): string => JSON.stringify(value);

const METADATA = {
  type: 'metadata',
  id: 'f-1',
  fileName: 'notes.txt',
  fileSize: 12,
  index: 1,
  total: 1,
  totalBytes: 12,
};

/** A valid control frame padded to exactly `bytes` UTF-8 bytes through its ignored ver field. */
function paddedEnd(bytes: number, pad = 'p'): string {
  const bare = '{"type":"end","ver":""}';
  const padBytes = utf8.encode(pad).length;
  return `{"type":"end","ver":"${pad.repeat((bytes - bare.length) / padBytes)}"}`;
}

describe('Frame classification rule 1: sender to receiver, only text frames are control', () => {
  it.each(['native', 'browser'] as const)(
    'a binary frame that spells a control message is file data to a %s receiver',
    (receiver) => {
      const bytes = utf8.encode(json({ type: 'end' }));
      expect(classifyFrameFromSender(binaryFrame(bytes), receiver)).toEqual({
        kind: 'file-data',
        bytes,
      });
    },
  );

  it('a binary frame of any size is file data, never a protocol error', () => {
    const bytes = new Uint8Array(300_000);
    const reading = classifyFrameFromSender(binaryFrame(bytes), 'native');
    expect(reading.kind).toBe('file-data');
    expect(reading.kind === 'file-data' && reading.bytes).toBe(bytes);
  });

  it('a text frame is read as control', () => {
    expect(classifyFrameFromSender(textFrame(json({ type: 'end' })), 'native')).toEqual({
      kind: 'control',
      message: { type: 'end' },
    });
  });
});

describe('Frame classification rule 2: a text frame over 1000 bytes is a protocol error', () => {
  it.each(['native', 'browser'] as const)('1000 bytes is still control to a %s receiver', (r) => {
    const text = paddedEnd(1000);
    expect(utf8.encode(text)).toHaveLength(1000);
    expect(classifyFrameFromSender(textFrame(text), r).kind).toBe('control');
  });

  it.each(['native', 'browser'] as const)('1001 bytes stops a %s receiver', (receiver) => {
    expect(classifyFrameFromSender(textFrame(`${paddedEnd(1000)} `), receiver)).toEqual({
      kind: 'protocol-error',
      problem: 'a control frame of more than 1000 bytes arrived',
    });
  });

  it('the limit counts UTF-8 bytes, not characters', () => {
    const text = paddedEnd(1002, '€');
    expect(text.length).toBeLessThan(1000);
    expect(classifyFrameFromSender(textFrame(text), 'native').kind).toBe('protocol-error');
  });

  it('a long text frame that is not JSON is a protocol error too', () => {
    expect(classifyFrameFromSender(textFrame('z'.repeat(5000)), 'native').kind).toBe(
      'protocol-error',
    );
  });

  it('a text frame that is not JSON is not a control message', () => {
    expect(classifyFrameFromSender(textFrame('{"type":"end"'), 'native')).toEqual({
      kind: 'ignored',
      why: 'not-json',
    });
  });
});

describe('Frame classification rule 3: a parsed frame with an unknown type is ignored', () => {
  it.each([
    [json({ type: 'resume', at: 5 }), 'unknown-type'],
    [json({ kind: 'metadata' }), 'unknown-type'],
    [json({ type: 7 }), 'unknown-type'],
    [json({ type: 'ack', id: 'f-1', offset: 0 }), 'wrong-direction'],
    [json({ type: 'received' }), 'wrong-direction'],
  ])('%s is ignored by a receiver', (text, why) => {
    expect(classifyFrameFromSender(textFrame(text), 'native')).toEqual({ kind: 'ignored', why });
  });

  it('a sender ignores an unknown type too', () => {
    expect(classifyFrameFromReceiver(textFrame(json({ type: 'pause' })))).toEqual({
      kind: 'ignored',
      why: 'unknown-type',
    });
  });
});

describe('Frame classification rule 4: a sender accepts control in either framing', () => {
  const ack = { type: 'ack', id: 'f-1', offset: 0, pv: 1, pvMin: 1, ver: '1.6.0' };

  it.each([
    ['text', textFrame(json(ack))],
    ['binary', binaryFrame(utf8.encode(json(ack)))],
  ] as const)('an ack as %s', (_framing, frame) => {
    expect(classifyFrameFromReceiver(frame)).toEqual({ kind: 'control', message: ack });
  });

  it('received as binary (native receivers)', () => {
    expect(classifyFrameFromReceiver(binaryFrame(utf8.encode('{"type":"received"}')))).toEqual({
      kind: 'control',
      message: { type: 'received' },
    });
  });

  it('incompatible as binary', () => {
    const incompatible = { type: 'incompatible', reason: 'no', pv: 2, pvMin: 2 };
    expect(classifyFrameFromReceiver(binaryFrame(utf8.encode(json(incompatible))))).toEqual({
      kind: 'control',
      message: incompatible,
    });
  });

  it('a binary frame that is not UTF-8 is ignored', () => {
    expect(
      classifyFrameFromReceiver(binaryFrame(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))),
    ).toEqual({ kind: 'ignored', why: 'not-utf8' });
  });

  it('a binary control frame over 1000 bytes is a protocol error', () => {
    expect(classifyFrameFromReceiver(binaryFrame(utf8.encode(paddedEnd(1001, ' '))))).toEqual({
      kind: 'protocol-error',
      problem: 'a control frame of more than 1000 bytes arrived',
    });
  });

  it('metadata and end are not for a sender', () => {
    expect(classifyFrameFromReceiver(textFrame(json(METADATA)))).toEqual({
      kind: 'ignored',
      why: 'wrong-direction',
    });
  });
});

describe('Frame classification rule 6: leading whitespace before the opening brace', () => {
  const spaced = ` \n\t\r${json({ type: 'end' })}`;

  it('the native receiver skips it', () => {
    expect(classifyFrameFromSender(textFrame(spaced), 'native')).toEqual({
      kind: 'control',
      message: { type: 'end' },
    });
  });

  it('the browser receiver requires the frame to start with {', () => {
    expect(classifyFrameFromSender(textFrame(spaced), 'browser')).toEqual({
      kind: 'ignored',
      why: 'leading-whitespace',
    });
  });

  it('a sender tolerates it', () => {
    expect(classifyFrameFromReceiver(binaryFrame(utf8.encode(`  {"type":"received"}`)))).toEqual({
      kind: 'control',
      message: { type: 'received' },
    });
  });

  it('whitespace other than JSON whitespace is not skipped', () => {
    expect(classifyFrameFromSender(textFrame(`\u00a0${json({ type: 'end' })}`), 'native')).toEqual({
      kind: 'ignored',
      why: 'not-an-object',
    });
  });
});

describe('metadata table: every field is checked strictly', () => {
  const read = (fields: Record<string, unknown>) =>
    classifyFrameFromSender(textFrame(json({ ...METADATA, ...fields })), 'native');

  it('a complete metadata with pv, pvMin and ver reads whole', () => {
    expect(read({ pv: 2, pvMin: 1, ver: 'desktop-v1.6.0' })).toEqual({
      kind: 'control',
      message: { ...METADATA, pv: 2, pvMin: 1, ver: 'desktop-v1.6.0' },
    });
  });

  it.each([
    ['id', { id: undefined }, 'id is missing or not a string'],
    ['id', { id: 5 }, 'id is missing or not a string'],
    ['fileName', { fileName: undefined }, 'fileName is missing or empty'],
    ['fileName', { fileName: '' }, 'fileName is missing or empty'],
    ['fileName', { fileName: ['a'] }, 'fileName is missing or empty'],
    ['index', { index: 0 }, 'index is not a 1-based position'],
    ['index', { index: 1.5 }, 'index is not a 1-based position'],
    ['index', { index: '1' }, 'index is not a 1-based position'],
    ['total', { total: undefined }, 'total is not a count covering index'],
    ['total', { index: 3, total: 2 }, 'total is not a count covering index'],
    ['totalBytes', { totalBytes: -1 }, 'totalBytes is not a byte count'],
    ['totalBytes', { totalBytes: 2 ** 53 }, 'totalBytes is not a byte count'],
    ['pv', { pv: '2' }, 'pv is not a protocol version'],
    ['pv', { pv: 0 }, 'pv is not a protocol version'],
    ['pvMin', { pvMin: 1.5 }, 'pvMin is not a protocol version'],
  ])('an unusable %s refuses the file description (%o)', (_field, fields, problem) => {
    expect(read(fields)).toEqual({ kind: 'refused', type: 'metadata', problem });
  });

  it.each([undefined, null, -1, 1.5, '12', 1e400, 2 ** 53])(
    'fileSize %s is read as no usable size, not as a refusal',
    (fileSize) => {
      expect(read({ fileSize })).toEqual({
        kind: 'control',
        message: { ...METADATA, fileSize: undefined },
      });
    },
  );

  it('a null pv or pvMin reads as absent', () => {
    expect(read({ pv: null, pvMin: null })).toEqual({ kind: 'control', message: METADATA });
  });

  it('ver is informational: a non-string one is dropped, never refused', () => {
    expect(read({ ver: 42 })).toEqual({ kind: 'control', message: METADATA });
  });

  it('unknown fields are left out of the message', () => {
    expect(read({ resumeToken: 'abc' })).toEqual({ kind: 'control', message: METADATA });
  });
});

describe('ack table: id and offset are required', () => {
  const read = (value: unknown) => classifyFrameFromReceiver(textFrame(json(value)));

  it.each([
    [{ type: 'ack', offset: 0 }, 'id is missing or not a string'],
    [{ type: 'ack', id: 'f-1' }, 'offset is not a byte count'],
    [{ type: 'ack', id: 'f-1', offset: -4 }, 'offset is not a byte count'],
    [{ type: 'ack', id: 'f-1', offset: 1e400 }, 'offset is not a byte count'],
    [{ type: 'ack', id: 'f-1', offset: 0, pv: 'x' }, 'pv is not a protocol version'],
  ])('%o is refused', (ack, problem) => {
    expect(read(ack)).toEqual({ kind: 'refused', type: 'ack', problem });
  });

  it('an ack without pv and pvMin (a peer before 1.6.0) is read', () => {
    expect(read({ type: 'ack', id: 'f-1', offset: 0 })).toEqual({
      kind: 'control',
      message: { type: 'ack', id: 'f-1', offset: 0 },
    });
  });
});

describe('incompatible table: an abort is never dropped for its fields', () => {
  it('a missing reason reads as empty and unusable versions as absent', () => {
    expect(
      classifyFrameFromReceiver(textFrame(json({ type: 'incompatible', pv: 'x', ver: 3 }))),
    ).toEqual({ kind: 'control', message: { type: 'incompatible', reason: '' } });
  });
});

describe('hostile frames never throw and never leak through', () => {
  it('__proto__ keys do not become fields or pollute prototypes', () => {
    const text = '{"__proto__":{"type":"end","polluted":true},"type":"received"}';
    expect(classifyFrameFromReceiver(textFrame(text))).toEqual({
      kind: 'control',
      message: { type: 'received' },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(classifyFrameFromSender(textFrame('{"__proto__":{"type":"end"}}'), 'native')).toEqual({
      kind: 'ignored',
      why: 'unknown-type',
    });
  });

  it.each(['null', '[{"type":"end"}]', '"end"', '42', '', '{', '\ufeff{"type":"end"}'])(
    '%j is not a control message',
    (text) => {
      expect(classifyFrameFromSender(textFrame(text), 'native').kind).toBe('ignored');
      expect(classifyFrameFromReceiver(textFrame(text)).kind).toBe('ignored');
    },
  );

  const anyFrame: fc.Arbitrary<Frame> = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 1200 }).map(textFrame),
    fc.json().map(textFrame),
    fc
      .record({ type: fc.constantFrom('metadata', 'ack', 'end', 'received', 'incompatible') })
      .chain((head) =>
        fc
          .dictionary(
            fc.constantFrom(
              'id',
              'fileName',
              'fileSize',
              'index',
              'total',
              'totalBytes',
              'offset',
              'pv',
              'pvMin',
              'ver',
              'reason',
              '__proto__',
              'constructor',
            ),
            fc.jsonValue(),
          )
          .map((fields) => textFrame(json({ ...fields, ...head }))),
      ),
    fc.uint8Array({ maxLength: 1200 }).map(binaryFrame),
    fc.json().map((text) => binaryFrame(utf8.encode(text))),
  );

  it('no frame makes either classifier throw', () => {
    fc.assert(
      fc.property(anyFrame, (frame) => {
        for (const reading of [
          classifyFrameFromSender(frame, 'native'),
          classifyFrameFromSender(frame, 'browser'),
          classifyFrameFromReceiver(frame),
        ]) {
          expect(['file-data', 'control', 'refused', 'ignored', 'protocol-error']).toContain(
            reading.kind,
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it('every integer field of a decoded message is a safe non-negative integer', () => {
    fc.assert(
      fc.property(anyFrame, (frame) => {
        for (const reading of [
          classifyFrameFromSender(frame, 'native'),
          classifyFrameFromReceiver(frame),
        ]) {
          if (reading.kind !== 'control') continue;
          for (const [key, value] of Object.entries(reading.message)) {
            if (typeof value === 'number') {
              expect(Number.isSafeInteger(value) && value >= 0, key).toBe(true);
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
