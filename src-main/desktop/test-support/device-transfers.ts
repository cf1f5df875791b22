import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DesktopSnapshot, DevicesView } from '../../../src-shared/ipc/contract';
import type { IpcResult } from '../../../src-shared/ipc/result';
import type { TransferView } from '../../../src-shared/transfer/transfer-view';
import { openInstallation, type Installation } from '../../devices/installation';
import { startSender } from '../../engine/test-support/transfer-pair';
import { writeTextFile } from '../../engine/test-support/files-on-disk';
import type { LoopbackRig } from '../../engine/test-support/loopback-rig';
import type { DesktopOnLoopback } from './desktop-on-loopback';

export interface Sent {
  /** What the app showed while it received, in order. */
  views: TransferView[];
}

export const offerOf = (views: TransferView[]) =>
  views.find((view) => view.phase === 'awaiting-acceptance');

export const doneOf = (views: TransferView[]) => {
  const done = views.at(-1);
  if (done?.phase !== 'done') throw new Error('the transfer did not finish');
  return done;
};

export const valueOf = <T>(result: IpcResult<unknown>): T => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
};

export const devicesOf = async (app: DesktopOnLoopback): Promise<DevicesView> =>
  valueOf<DesktopSnapshot>(await app.call('getSnapshot', {})).devices;

/**
 * Other computers sending to a desktop app on the loopback rig, as the remembered-device tests
 * drive them. Call at the top level of a test file.
 */
export function deviceTransfers(rig: LoopbackRig) {
  let sources = 0;

  /** Another computer with Ferry installed: its own certificate, kept in its own folder. */
  const computer = (folder: string, name: string): Promise<Installation> =>
    openInstallation(join(rig.scratch.path, folder, 'computers', name), name);

  /**
   * `from` sends one file to `app`, which receives it by the code; when the app asks, the person
   * says yes. `from` undefined: a sender that offers none of Ferry's extensions, so no words.
   * Resolves once both ends are finished.
   */
  async function sendTo(
    app: DesktopOnLoopback,
    from: Installation | undefined,
    name: string,
  ): Promise<Sent> {
    const source = join(rig.scratch.path, 'sources', String((sources += 1)), name);
    await writeTextFile(source, `the contents of ${name}`);
    const { sender, code } = await startSender(rig.server.url, {
      paths: [source],
      iceServers: [],
      ...(from === undefined
        ? { extensions: false }
        : { identity: { pemFile: from.identity.pemFile, devices: from.setting } }),
    });
    const views: TransferView[] = [];
    const answered = (result: IpcResult<unknown>) =>
      expect(result).toEqual({ ok: true, value: null });
    const ended = new Promise<void>((resolve) => {
      const stop = app.controller.onEvent((channel, payload) => {
        if (channel !== 'transferState') return;
        const view = payload as TransferView;
        views.push(view);
        // The person answers the moment the question shows.
        if (view.phase === 'awaiting-acceptance') {
          void app.call('answerOffer', { accept: true }).then(answered);
        }
        if (view.phase === 'done' || view.phase === 'failed') {
          stop();
          resolve();
        }
      });
    });
    expect(await app.call('startReceive', { code })).toEqual({ ok: true, value: null });
    await Promise.all([ended, sender.finished, app.controller.settled()]);
    expect(views.at(-1)).toMatchObject({ phase: 'done' });
    expect(await readFile(join(app.downloads, name), 'utf8')).toBe(`the contents of ${name}`);
    return { views };
  }

  /** `from` sends once with the person's yes, and is remembered as `name`. */
  async function rememberAfterTransfer(
    app: DesktopOnLoopback,
    from: Installation,
    name: string,
  ): Promise<DevicesView> {
    await sendTo(app, from, `first-from-${name}.txt`);
    const devices = valueOf<DevicesView>(await app.call('rememberPeer', { name }));
    expect(await app.call('dismissTransfer', {})).toEqual({ ok: true, value: null });
    return devices;
  }

  return { computer, sendTo, rememberAfterTransfer };
}
