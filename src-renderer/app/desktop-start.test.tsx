import { act, render, screen } from '@testing-library/react';
import { NO_NEARBY } from '../../src-shared/app/nearby-core';
import { describe, expect, it } from 'vitest';
import type { SendItem } from '../../src-shared/ipc/contract';
import { IDLE_TRANSFER } from '../../src-shared/transfer/transfer-view';
import { createDesktopBackend } from '../backend/desktop-backend';
import { CODE, PHOTO, WAITING_FOR_PEER } from '../testing/fixtures';
import { TEST_DEVICES, TEST_SETTINGS } from '../testing/scripted-backend';
import { testBridge } from '../testing/test-bridge';
import { App } from './app';

const PHOTO_ITEM: SendItem = {
  path: PHOTO.id,
  name: PHOTO.name,
  size: PHOTO.size,
  isDirectory: false,
  fileCount: 1,
};

/**
 * Main as the window sees it at start-up: Ferry was opened with a photo, and describing it waits
 * until the test lets it answer.
 */
function startingMain() {
  let describeRequested: () => void = () => undefined;
  let answerDescribe: () => void = () => undefined;
  const describeAsked = new Promise<void>((resolve) => (describeRequested = resolve));
  const describeAnswered = new Promise<void>((resolve) => (answerDescribe = resolve));
  const { bridge, emit } = testBridge(
    {
      getSnapshot: async () => ({
        transfer: IDLE_TRANSFER,
        lanRoom: { state: 'off' },
        discoveredRooms: [],
        settings: TEST_SETTINGS,
        devices: TEST_DEVICES,
        history: [],
        pendingPaths: [PHOTO_ITEM.path],
        nearby: NO_NEARBY,
      }),
      describePaths: async () => {
        describeRequested();
        await describeAnswered;
        return [PHOTO_ITEM];
      },
    },
    { crossProcess: true },
  );
  return { bridge, push: emit, describeAsked, answerDescribe };
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
    expect(screen.getByText('Sending 2 files, 2.5 MB.')).toBeTruthy();
  });
});
