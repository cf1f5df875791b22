import { appError } from '../../../src-shared/app/app-errors';
import type { RunningTransfer, SessionStarter } from '../../../src-shared/app/app-ports';
import type { DeviceSetting } from '../../../src-shared/devices/peer-identity';
import { textMessageProblem } from '../../../src-shared/session/text-message';
import type { IpcError } from '../../../src-shared/ipc/result';
import type { ExpectedPeer } from '../../../src-shared/session/expected-peer';
import type { Reach } from '../../../src-shared/nearby/nearby-ports';
import type { SelectedItem } from '../ferry-backend';
import { browserPeerVersion } from './peer-version';
import { ReceiveTransfer } from './receive-transfer';
import type { SaveChoice } from './save-choice';
import { SendTransfer } from './send-transfer';
import type { SourceItem } from './source-files';

/** A transfer the page asks for. */
export type BrowserStart =
  /**
   * `to`: the only device that may receive the batch (docs/protocol.md, "Remembered devices").
   * `reach`: sent to that one device without a code (docs/protocol.md, "Pair rooms", "Presence").
   */
  | { kind: 'send'; items: readonly SelectedItem[]; to?: ExpectedPeer; reach?: Reach }
  /** A text message (docs/protocol.md, "Text messages"). */
  | { kind: 'text'; text: string; reach?: Reach }
  /**
   * `roomId`: an invitation, received without a code (`code` empty); `from`: the paired device
   * that invited, the only one that may send.
   */
  | { kind: 'receive'; code: string; key?: string; roomId?: string; from?: ExpectedPeer };

/** What the page's transfers need from the backend that starts them. */
export interface BrowserSessionContext {
  /** What the person chose or dropped, by item id. */
  sources: ReadonlyMap<string, SourceItem>;
  /** Where the signaling server is. */
  signalingAddress(): Promise<string>;
  /** This page's name and the devices it remembers, once they are read. */
  devices(): Promise<DeviceSetting>;
  settings(): { confirmWords: boolean; reportStats: boolean; autoAcceptMaxBytes: number };
  saving: SaveChoice;
}

/**
 * The web client's session starter for the application core (docs/architecture.md, "The
 * application core"): the browser's own transfers, over its WebRTC and event socket.
 */
export function browserSessions(context: BrowserSessionContext): SessionStarter<BrowserStart> {
  return {
    async start(start, events) {
      const { confirmWords, reportStats, autoAcceptMaxBytes } = context.settings();
      const common = {
        local: browserPeerVersion(),
        confirmWords,
        publish: events.view,
        warn: events.warning,
      };
      if (start.kind === 'receive') {
        const devices = await context.devices();
        const transfer = new ReceiveTransfer({
          ...common,
          signalingAddress: await context.signalingAddress(),
          code: start.code,
          devices,
          ...(start.key === undefined ? {} : { linkSecret: start.key }),
          ...(start.roomId === undefined ? {} : { roomId: start.roomId }),
          ...(start.from === undefined ? {} : { expectPeer: start.from }),
          saving: context.saving,
          reportStats,
          autoAcceptMaxBytes,
        });
        return running(transfer);
      }
      const batch = start.kind === 'text' ? textBatch(start.text) : filesOf(context, start.items);
      if ('code' in batch) return batch;
      const devices = await context.devices();
      const transfer = new SendTransfer({
        ...common,
        ...batch,
        signalingAddress: await context.signalingAddress(),
        devices,
        ...(start.kind === 'send' && start.to !== undefined ? { expectPeer: start.to } : {}),
        ...(start.reach === undefined ? {} : { reach: start.reach }),
      });
      return running(transfer);
    },
  };
}

/** The files of the items the person chose, or why they cannot be sent. */
function filesOf(
  context: BrowserSessionContext,
  items: readonly SelectedItem[],
): { files: SourceItem['files'] } | IpcError {
  const files = [];
  for (const item of items) {
    const source = context.sources.get(item.id);
    if (source === undefined) return appError('ERR_UNKNOWN_ITEM', item.name);
    files.push(...source.files);
  }
  return files.length === 0 ? appError('ERR_NOTHING_TO_SEND') : { files };
}

function textBatch(text: string): { files: []; text: string } | IpcError {
  const problem = textMessageProblem(text);
  return problem === undefined ? { files: [], text } : appError('ERR_TEXT_REFUSED', problem);
}

/** A page transfer as the core drives it; it runs from here until it has an outcome. */
function running(transfer: SendTransfer | ReceiveTransfer): RunningTransfer {
  return {
    closed: transfer.run(),
    cancel: () => void transfer.cancel(),
    leave: () => transfer.dispose(),
    answerOffer: async (accept, destination, packing) => {
      if (!(transfer instanceof ReceiveTransfer)) return false;
      return transfer.answer(accept, destination, packing);
    },
    answerWords: (match) => transfer.answerWords(match),
  };
}
