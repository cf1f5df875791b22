import { describe, expect, it } from 'vitest';
import type { DesktopSettings, DesktopSnapshot } from '../../src-shared/ipc/contract';
import type { IpcResult } from '../../src-shared/ipc/result';
import { useLoopbackRig } from '../engine/test-support/loopback-rig';
import { useDesktopOnLoopback, type DesktopOnLoopback } from './test-support/desktop-on-loopback';

const rig = useLoopbackRig();

const desktop = useDesktopOnLoopback(rig);

const notConfirmed = {
  ok: false,
  error: {
    code: 'ERR_CHANGE_NOT_CONFIRMED',
    message: 'Nothing was changed: you did not confirm it.',
  },
};

const settingsOf = async (app: DesktopOnLoopback): Promise<DesktopSettings> => {
  const result: IpcResult<unknown> = await app.call('getSnapshot', {});
  if (!result.ok) throw new Error(result.error.message);
  return (result.value as DesktopSnapshot).settings;
};

// The window may be compromised: a change that lowers a guard is made only once the person said
// yes in main's own dialog (docs/architecture.md, "Changes main confirms").
describe('a settings change that lowers a guard', () => {
  it('another server is used only once the person confirms it in main', async () => {
    const app = await desktop('server-url');
    const before = await settingsOf(app);
    app.dialog.confirms = false;

    expect(await app.call('updateSettings', { serverUrl: 'http://203.0.113.9:3001' })).toEqual(
      notConfirmed,
    );
    expect(await settingsOf(app)).toEqual(before);
    expect(app.questions).toEqual([
      expect.objectContaining({
        detail: expect.stringContaining('http://203.0.113.9:3001') as string,
      }),
    ]);

    app.dialog.confirms = true;
    expect(
      await app.call('updateSettings', { serverUrl: 'http://203.0.113.9:3001' }),
    ).toMatchObject({ ok: true, value: { serverUrl: 'http://203.0.113.9:3001' } });
    expect(await settingsOf(app)).toMatchObject({ serverUrl: 'http://203.0.113.9:3001' });
    expect(app.questions).toHaveLength(2);
  });

  it('turning off "Confirm the words" or raising the quick-save cap is confirmed too', async () => {
    const app = await desktop('guards');
    expect(await app.call('updateSettings', { confirmWords: true })).toMatchObject({ ok: true });
    const before = await settingsOf(app);
    app.dialog.confirms = false;

    expect(await app.call('updateSettings', { confirmWords: false })).toEqual(notConfirmed);
    expect(
      await app.call('updateSettings', { autoAcceptMaxBytes: before.autoAcceptMaxBytes + 1 }),
    ).toEqual(notConfirmed);
    expect(await settingsOf(app)).toEqual(before);
    expect(app.questions).toHaveLength(2);
  });

  it('what raises a guard, or touches none, is made without asking', async () => {
    const app = await desktop('no-question');
    app.dialog.confirms = false;
    const { serverUrl } = await settingsOf(app);

    expect(
      await app.call('updateSettings', {
        serverUrl,
        confirmWords: true,
        autoAcceptMaxBytes: 1024,
        reportStats: false,
      }),
    ).toMatchObject({
      ok: true,
      value: { confirmWords: true, autoAcceptMaxBytes: 1024, reportStats: false },
    });
    expect(app.questions).toEqual([]);
  });
});
