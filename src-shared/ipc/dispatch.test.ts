import { describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS, type HandlerMap } from './contract';
import { dispatchInvoke, HandlerError } from './dispatch';

function recordingHandlers(calls: unknown[]): HandlerMap {
  const handlers: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const channel of INVOKE_CHANNELS) {
    handlers[channel] = async (request) => {
      calls.push([channel, request]);
      return null;
    };
  }
  return handlers as unknown as HandlerMap;
}

const ignore = (): void => undefined;

describe('every IPC request is validated before a handler sees it', () => {
  it.each([
    ['startSend', { paths: [] }, 'an empty path list'],
    ['startSend', { paths: ['/tmp/a\0b'] }, 'a path with NUL'],
    ['startSend', { paths: '/etc/passwd' }, 'a bare string'],
    ['startSend', { paths: ['/a'], extra: 1 }, 'an unexpected key'],
    ['startSendText', { text: '' }, 'an empty text'],
    ['startSendText', { text: 'x'.repeat(1024 * 1024 + 1) }, 'a text over the limit'],
    ['startSendText', { text: '€'.repeat(349_526) }, 'a text over the limit in UTF-8 bytes only'],
    ['startSendText', { text: 42 }, 'a text that is not text'],
    ['startSendNearby', { key: 'room:AB', paths: ['/a'] }, 'a roster id too short'],
    ['startSendNearby', { key: 'room:abcdef', paths: ['/a'] }, 'a roster id off its alphabet'],
    ['startSendNearby', { key: 'pair:AA:BB', paths: ['/a'] }, 'a pair key without a fingerprint'],
    ['startSendNearby', { key: 'AB2CD3', paths: ['/a'] }, 'a key of no kind'],
    ['startSendNearby', { key: 'room:AB2CD3', paths: [] }, 'no paths'],
    ['startSendNearby', { key: 'room:AB2CD3', text: '' }, 'an empty text'],
    ['startSendNearby', { key: 'room:AB2CD3', paths: ['/a'], text: 'x' }, 'paths and a text'],
    ['startReceive', { code: 42 }, 'a code that is not text'],
    ['startReceive', { code: 'x'.repeat(201) }, 'an oversized code'],
    ['answerOffer', { accept: 'yes' }, 'a non-boolean answer'],
    ['answerWords', { match: 'yes' }, 'a non-boolean answer about the words'],
    ['updateSettings', { confirmWords: 1 }, 'a non-boolean word check'],
    ['updateSettings', { autoAcceptMaxBytes: -1 }, 'a negative quick-save cap'],
    ['updateSettings', { autoAcceptMaxBytes: 1.5 }, 'a quick-save cap in part bytes'],
    ['updateSettings', { serverUrl: 'ftp://x' }, 'a non-http server'],
    ['updateSettings', { serverUrl: 'javascript:alert(1)' }, 'a script link'],
    ['updateSettings', { downloadFolder: '/home/me/.config/autostart' }, 'a download folder'],
    ['openFolder', { path: '/tmp', constructor: 'x' }, 'an inherited key name'],
    ['openFolder', JSON.parse('{"path":"/tmp","__proto__":{"x":1}}'), 'a __proto__ key'],
    ['getSnapshot', null, 'a null payload'],
    ['getSnapshot', ['x'] as unknown, 'an array payload'],
  ])('%s refuses %j (%s)', async (channel, request, _why) => {
    const calls: unknown[] = [];
    const result = await dispatchInvoke(recordingHandlers(calls), channel, request, ignore);
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'ERR_BAD_REQUEST' }),
    });
    expect(calls).toEqual([]);
  });

  it('a text message of exactly the limit in UTF-8 bytes reaches its handler', async () => {
    const calls: unknown[] = [];
    // 349,525 euro signs are 1,048,575 bytes; one more byte makes the limit.
    const text = `${'€'.repeat(349_525)}x`;
    const result = await dispatchInvoke(
      recordingHandlers(calls),
      'startSendText',
      { text },
      ignore,
    );
    expect(result).toEqual({ ok: true, value: null });
    expect(calls).toEqual([['startSendText', { text }]]);
  });

  it('a send to a nearby device by its roster id or its fingerprint reaches its handler', async () => {
    const calls: unknown[] = [];
    const fingerprint = `sha-256 ${Array.from({ length: 32 }, () => 'AB').join(':')}`;
    const requests = [
      { key: 'room:AB2CD3', paths: ['/home/ana/a.txt'] },
      { key: `pair:${fingerprint}`, text: 'hello' },
    ];
    for (const request of requests) {
      const result = await dispatchInvoke(
        recordingHandlers(calls),
        'startSendNearby',
        request,
        ignore,
      );
      expect(result).toEqual({ ok: true, value: null });
    }
    expect(calls).toEqual(requests.map((request) => ['startSendNearby', request]));
  });

  it('an unknown channel, even one named like an Object method, is refused', async () => {
    const calls: unknown[] = [];
    // openExternal was removed: no renderer request opens a link (docs/architecture.md).
    for (const channel of ['toString', '__proto__', 'constructor', 'nope', 'openExternal']) {
      const result = await dispatchInvoke(recordingHandlers(calls), channel, {}, ignore);
      expect(result.ok === false && result.error.code).toBe('ERR_UNKNOWN_CHANNEL');
    }
    expect(calls).toEqual([]);
  });

  it('a valid request reaches its handler and its value comes back', async () => {
    const calls: unknown[] = [];
    const result = await dispatchInvoke(
      recordingHandlers(calls),
      'answerOffer',
      { accept: true, destination: '/home/me/Downloads' },
      ignore,
    );
    expect(result).toEqual({ ok: true, value: null });
    expect(calls).toEqual([['answerOffer', { accept: true, destination: '/home/me/Downloads' }]]);
  });

  it('a handler failure meant for people crosses as its code and sentence', async () => {
    const handlers = recordingHandlers([]);
    handlers.startReceive = async () => {
      throw new HandlerError('ERR_CODE_NOT_FOUND', 'That code is unknown or has expired.');
    };
    const result = await dispatchInvoke(handlers, 'startReceive', { code: 'a-b-c' }, ignore);
    expect(result).toEqual({
      ok: false,
      error: { code: 'ERR_CODE_NOT_FOUND', message: 'That code is unknown or has expired.' },
    });
  });

  it('an unexpected exception is logged in main and reaches the renderer without its stack', async () => {
    const handlers = recordingHandlers([]);
    handlers.cancelTransfer = async () => {
      throw new Error('secret internals at /home/me/.config');
    };
    const logged: unknown[] = [];
    const result = await dispatchInvoke(handlers, 'cancelTransfer', {}, (e) => logged.push(e));
    expect(result.ok === false && result.error.code).toBe('ERR_INTERNAL');
    expect(JSON.stringify(result)).not.toContain('secret');
    expect(logged).toHaveLength(1);
  });
});
