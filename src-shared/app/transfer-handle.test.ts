import { describe, expect, it } from 'vitest';
import { SessionFailure } from '../session/session-failure';
import type { TransferView } from '../transfer/transfer-view';
import {
  TransferHandle,
  type FinalState,
  type TransferControl,
  type TransferState,
} from './transfer-handle';

const REGISTERING: TransferState = {
  phase: 'registering',
  direction: 'send',
  files: [],
  totalBytes: 0,
};
const WAITING: TransferState = {
  phase: 'waiting-for-peer',
  direction: 'send',
  code: 'acid-acorn-acre',
  files: [],
  totalBytes: 0,
};
const DONE: FinalState = { phase: 'done', direction: 'send', files: [], totalBytes: 0 };
const CANCELLED: FinalState = {
  phase: 'failed',
  direction: 'send',
  code: 'ERR_CANCELLED',
  message: 'the transfer was cancelled',
};

/** A promise with its resolve function, for a flow the test lets go of when it says so. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A flow that publishes `views`, then waits for `until` before it returns. */
function publishing(views: TransferView[], until: Promise<void> = Promise.resolve()) {
  return async (control: TransferControl): Promise<void> => {
    for (const view of views) control.update(view);
    await until;
  };
}

/** Every state a listener added right after the handle was made hears. */
function heard(handle: TransferHandle): TransferState[] {
  const states: TransferState[] = [];
  handle.on('state', (state) => states.push(state));
  return states;
}

/** Whether `promise` has settled by the time every pending step has run. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
  return settled;
}

describe('the transfer handle', () => {
  it('starts after its owner’s own code, so a listener added at once hears every state', async () => {
    const handle = new TransferHandle(
      REGISTERING,
      publishing([REGISTERING, WAITING, DONE]),
      'ERR_UNEXPECTED',
    );
    const states = heard(handle);

    expect(await handle.finished).toEqual(DONE);
    expect(states).toEqual([REGISTERING, WAITING, DONE]);
  });

  it('keeps the first final state: nothing the teardown publishes after it is shown', async () => {
    const late: FinalState = { ...CANCELLED, code: 'ERR_PEER_CLOSED', message: 'gone' };
    const handle = new TransferHandle(
      REGISTERING,
      publishing([WAITING, DONE, late, WAITING]),
      'ERR_UNEXPECTED',
    );
    const states = heard(handle);

    expect(await handle.finished).toEqual(DONE);
    expect(handle.state).toEqual(DONE);
    expect(states).toEqual([WAITING, DONE]);
  });

  it('keeps a failure too: an error thrown after it does not replace it', async () => {
    const handle = new TransferHandle(
      REGISTERING,
      async (control) => {
        control.update(CANCELLED);
        throw new Error('the socket closed twice');
      },
      'ERR_UNEXPECTED',
    );

    expect(await handle.finished).toEqual(CANCELLED);
  });

  it('never rejects: a thrown failure becomes the failed state with its own code', async () => {
    const handle = new TransferHandle(
      REGISTERING,
      () => Promise.reject(new SessionFailure('ERR_ROOM_FULL')),
      'ERR_UNEXPECTED',
    );
    const states = heard(handle);

    const final = await handle.finished;
    expect(final).toEqual({
      phase: 'failed',
      direction: 'send',
      code: 'ERR_ROOM_FULL',
      message: 'this transfer already has two devices in it',
    });
    expect(states).toEqual([final]);
  });

  it('gives an unknown error the fallback code, with the error’s own words', async () => {
    const handle = new TransferHandle(
      { phase: 'connecting', direction: 'receive', code: 'acid-acorn-acre', stage: 'finding' },
      () => Promise.reject(new TypeError('boom')),
      'ERR_SIGNALING_UNREACHABLE',
    );

    expect(await handle.finished).toEqual({
      phase: 'failed',
      direction: 'receive',
      code: 'ERR_SIGNALING_UNREACHABLE',
      message: 'could not reach signaling server (boom)',
    });
  });

  it('fails a flow that returns without an outcome', async () => {
    const handle = new TransferHandle(REGISTERING, publishing([WAITING]), 'ERR_UNEXPECTED');

    const final = await handle.finished;
    expect(final).toMatchObject({ phase: 'failed', code: 'ERR_UNEXPECTED' });
    expect(final.phase === 'failed' && final.message).toMatch(/ended without an outcome/);
  });

  it('settles `finished` only once the flow has returned, after the outcome is shown', async () => {
    const closing = gate();
    const handle = new TransferHandle(
      REGISTERING,
      publishing([DONE], closing.opened),
      'ERR_UNEXPECTED',
    );

    expect(await hasSettled(handle.finished)).toBe(false);
    expect(handle.state).toEqual(DONE);
    closing.open();
    expect(await handle.finished).toEqual(DONE);
  });

  it('cancels a running flow through its signal; the flow’s failure is the outcome', async () => {
    const handle = new TransferHandle(
      REGISTERING,
      (control) =>
        new Promise<void>((resolve) => {
          control.update(WAITING);
          control.cancelled.addEventListener('abort', () => {
            control.update(CANCELLED);
            resolve();
          });
        }),
      'ERR_UNEXPECTED',
    );
    await hasSettled(handle.finished);

    handle.cancel();
    expect(await handle.finished).toEqual(CANCELLED);
  });

  it('keeps the outcome when cancelled after it, and only hurries the teardown', async () => {
    let teardownHurried = false;
    const handle = new TransferHandle(
      REGISTERING,
      (control) =>
        new Promise<void>((resolve) => {
          control.update(DONE);
          control.cancelled.addEventListener('abort', () => {
            teardownHurried = true;
            control.update(CANCELLED);
            resolve();
          });
        }),
      'ERR_UNEXPECTED',
    );
    await hasSettled(handle.finished);

    handle.cancel();
    expect(await handle.finished).toEqual(DONE);
    expect(teardownHurried).toBe(true);
  });

  it('does nothing when cancelled after it has finished', async () => {
    let signal: AbortSignal | undefined;
    const handle = new TransferHandle(
      REGISTERING,
      async (control) => {
        signal = control.cancelled;
        control.update(DONE);
      },
      'ERR_UNEXPECTED',
    );
    await handle.finished;

    handle.cancel();
    expect(signal?.aborted).toBe(false);
    expect(handle.state).toEqual(DONE);
  });

  it('ignores the screens’ idle state', async () => {
    const handle = new TransferHandle(
      REGISTERING,
      publishing([{ phase: 'idle' }, DONE]),
      'ERR_UNEXPECTED',
    );
    const states = heard(handle);

    await handle.finished;
    expect(states).toEqual([DONE]);
  });

  it('iterates from the current state to the final one', async () => {
    const handle = new TransferHandle(REGISTERING, publishing([WAITING, DONE]), 'ERR_UNEXPECTED');

    const seen: TransferState[] = [];
    for await (const state of handle) seen.push(state);
    expect(seen).toEqual([REGISTERING, WAITING, DONE]);
  });

  it('passes on warnings and the route, and stops telling a listener that was removed', async () => {
    const closing = gate();
    const handle = new TransferHandle<'relay' | 'direct'>(
      REGISTERING,
      async (control) => {
        control.warn('first');
        control.connected('relay');
        await closing.opened;
        control.warn('second');
        control.update(DONE);
      },
      'ERR_UNEXPECTED',
    );
    const warnings: string[] = [];
    const routes: string[] = [];
    const warned = (message: string): number => warnings.push(message);
    handle.on('warning', warned).on('connected', (route) => routes.push(route));
    await hasSettled(handle.finished);

    handle.off('warning', warned);
    closing.open();
    await handle.finished;
    expect(warnings).toEqual(['first']);
    expect(routes).toEqual(['relay']);
  });
});
