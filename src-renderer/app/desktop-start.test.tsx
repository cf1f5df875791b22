import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  INVOKE_CHANNELS,
  type EventChannel,
  type EventContract,
  type FerryBridge,
  type HandlerMap,
  type SendItem,
} from '../../src-shared/ipc/contract';
import { dispatchInvoke } from '../../src-shared/ipc/dispatch';
import { IDLE_TRANSFER } from '../../src-shared/transfer/transfer-view';
import { createDesktopBackend } from '../backend/desktop-backend';
import { CODE, PHOTO, WAITING_FOR_PEER } from '../testing/fixtures';
import { TEST_SETTINGS } from '../testing/scripted-backend';
import { App } from './app';

const PHOTO_ITEM: SendItem = {
  path: PHOTO.id,
  name: PHOTO.name,
  size: PHOTO.size,
  isDirectory: false,
  fileCount: 1,
};

/** An IPC message crosses from one process to the other: it arrives as a task of its own. */
const delivered = <T,>(value: () => T | Promise<T>): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value())));

/**
 * Main as the window sees it at start-up, over the real request validation and dispatch: Ferry
 * was opened with a photo, and describing it waits until the test lets it answer.
 */
function startingMain() {
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  let describeRequested: () => void = () => undefined;
  let answerDescribe: () => void = () => undefined;
  const describeAsked = new Promise<void>((resolve) => (describeRequested = resolve));
  const describeAnswered = new Promise<void>((resolve) => (answerDescribe = resolve));
  const unused = () => Promise.reject(new Error('not part of start-up'));
  const handlers: HandlerMap = {
    getSnapshot: async () => ({
      transfer: IDLE_TRANSFER,
      lanRoom: { state: 'off' },
      discoveredRooms: [],
      settings: TEST_SETTINGS,
      pendingPaths: [PHOTO_ITEM.path],
    }),
    describePaths: async () => {
      describeRequested();
      await describeAnswered;
      return [PHOTO_ITEM];
    },
    pickFiles: unused,
    pickFolder: unused,
    chooseDownloadFolder: unused,
    chooseDestination: unused,
    startSend: unused,
    startReceive: unused,
    answerOffer: unused,
    cancelTransfer: unused,
    dismissTransfer: unused,
    updateSettings: unused,
    setLanRoom: unused,
    openFolder: unused,
    revealFile: unused,
  };
  const bridge: FerryBridge = {
    invoke: Object.fromEntries(
      INVOKE_CHANNELS.map((channel) => [
        channel,
        async (request: unknown) => {
          const answer = await delivered(() =>
            dispatchInvoke(handlers, channel, request, () => undefined),
          );
          return delivered(() => answer);
        },
      ]),
    ) as FerryBridge['invoke'],
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(channel, set);
      return () => set.delete(listener as (payload: never) => void);
    },
    pathForFile: () => '',
  };
  const push = <K extends EventChannel>(channel: K, payload: EventContract[K]): void => {
    for (const listener of listeners.get(channel) ?? []) {
      (listener as (p: EventContract[K]) => void)(payload);
    }
  };
  return { bridge, push, describeAsked, answerDescribe };
}

describe('the desktop window at start-up', () => {
  it('shows a transfer that started while the files it was opened with were described', async () => {
    const main = startingMain();
    render(<App backend={createDesktopBackend(main.bridge)} />);

    await main.describeAsked;
    // The snapshot said idle; this change comes after it and must not be undone by it.
    act(() => main.push('transferState', WAITING_FOR_PEER));
    main.answerDescribe();

    expect((await screen.findByTestId('transfer-code')).textContent).toBe(CODE);
    expect(screen.getByText('Sending 2 files, 2.40 MB.')).toBeTruthy();
  });
});
