import { randomBytes, randomUUID } from 'node:crypto';
import { offeredCapabilities } from '../../src-shared/session/capabilities';
import { newLinkSecret } from '../../src-shared/verify/link-secret';
import type { Frame, SenderFile } from '../../src-shared/protocol';
import type { FileSource } from '../../src-shared/session/file-source';
import type { ChannelPort } from '../../src-shared/session/ports';
import { runSendFlow } from '../../src-shared/session/send-flow';
import { runSendSession } from '../../src-shared/session/send-session';
import { SessionFailure, unlessCancelled } from '../../src-shared/session/session-failure';
import { textMessageProblem, textSource } from '../../src-shared/session/text-message';
import { DEFAULT_TIMEOUTS, type SendOptions, type SendTextOptions } from './engine-options';
import { localVersion } from './local-version';
import { laneCount, nativeRoute } from './native-route';
import { listSendFiles, type SendFile } from './send-list';
import { joinSignalingRoom } from './signaling-seat';
import { nativeSignalingRequests } from './signaling-requests';
import { diskFileSource } from './source-reader';
import { nativeSenderFileId } from './sender-file-id';
import { nodeSha256 } from './node-sha256';
import { connectTimeouts, senderTimers } from './engine-timeouts';
import { TransferHandle } from '../../src-shared/app/transfer-handle';
import type { Route } from './peer-link';
import type { Transfer, TransferControl } from './transfer';

/**
 * Sends files and folders: the session core's send flow (src-shared/session/send-flow.ts) over
 * the native adapters. The code appears in the `waiting-for-peer` state.
 */
export function sendFiles(options: SendOptions): Transfer {
  return new TransferHandle<Route>(
    { phase: 'registering', direction: 'send', files: [], totalBytes: 0 },
    async (control) => send(options, control, await listedBatch(options, control)),
    'ERR_SIGNALING_UNREACHABLE',
  );
}

/**
 * Sends a text as a text message: one `message.txt` read from memory, which a Ferry receiver
 * shows and any other saves (docs/protocol.md, "Text messages").
 */
export function sendText(options: SendTextOptions): Transfer {
  return new TransferHandle<Route>(
    { phase: 'registering', direction: 'send', files: [], totalBytes: 0 },
    async (control) => {
      const problem = textMessageProblem(options.text);
      if (problem !== undefined) throw SessionFailure.withDetail('ERR_SOURCE_UNREADABLE', problem);
      const source = textSource(options.text);
      // Nothing on disk to resume from: a fresh id each time.
      const announced = [{ id: randomUUID(), fileName: source.name, fileSize: source.size }];
      await send(options, control, { sources: [source], announced, text: options.text });
    },
    'ERR_SIGNALING_UNREACHABLE',
  );
}

/** What a send carries: the sources, their metadata, and the text when it is a text message. */
interface Batch {
  sources: readonly FileSource[];
  announced: readonly SenderFile[];
  text?: string;
}

async function listedBatch(options: SendOptions, control: TransferControl): Promise<Batch> {
  const links: string[] = [];
  const files = await unlessCancelled(
    listSendFiles(options.paths, (name) => links.push(name)),
    control.cancelled,
  );
  if (links.length > 0) control.warn(skippedLinksWarning(links));
  const announced = await announce(files, options);
  return { sources: files.map(diskFileSource), announced };
}

async function send(
  options: Omit<SendOptions, 'paths'>,
  control: TransferControl,
  batch: Batch,
): Promise<void> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const { cancelled } = control;
  const { sources, announced } = batch;
  const requests = nativeSignalingRequests(options.serverUrl, timeouts, options.serverCertificate);
  const route = nativeRoute(options, requests, control);
  const caps = offeredCapabilities(options.extensions, { lanes: laneCount(options) > 1 });
  // One secret for this code, shown with it in the receive link (docs/protocol.md, "Secret link").
  const linkSecret = caps.includes('link') ? newLinkSecret(randomBytes) : undefined;
  await runSendFlow(
    {
      clock: route.clock,
      timeouts: connectTimeouts(timeouts),
      newRoomId: randomUUID,
      registerCode: (roomId, stop) => requests.registerCode(roomId, stop),
      releaseCode: (code, roomId, outcome) => requests.releaseCode(code, roomId, outcome),
      joinRoom: (roomId, stop) => joinSignalingRoom(options, roomId, timeouts.roleWait, stop),
      chooseRoute: route.choose,
      runSession: (channel, started, code, continuing) => {
        route.opened();
        const outgoing = options.testSeam?.outgoing;
        const lanes = route.lanes();
        return runSendSession({
          channel: outgoing === undefined ? channel : rewritingSends(channel, outgoing),
          ...(lanes === undefined ? {} : { lanes }),
          clock: route.clock,
          surface: 'native',
          sources,
          announced,
          caps,
          ...(batch.text === undefined ? {} : { text: batch.text }),
          randomBytes,
          ...(linkSecret === undefined ? {} : { linkSecret }),
          ...(options.identity === undefined ? {} : { devices: options.identity.devices }),
          // The person compares the words once, on the connection the batch was accepted on;
          // a restored link goes on without asking again (docs/protocol.md, "Verification words").
          ...(continuing || options.onPeerCheck === undefined
            ? {}
            : { confirmPeer: options.onPeerCheck }),
          incrementalSha256: nodeSha256,
          local: localVersion(options),
          remedySurface: options.remedySurface,
          code,
          continuing,
          publish: control.update,
          cancelled,
          started,
          timers: senderTimers(timeouts),
          flushMs: timeouts.abortFlush,
          closeGraceMs: timeouts.abortFlush,
        });
      },
    },
    {
      files: sources.map((file) => ({ name: file.name, size: file.size })),
      publish: control.update,
      cancelled,
      afterConnectMs: 0,
      ...(linkSecret === undefined ? {} : { linkSecret }),
      ...(batch.text === undefined ? {} : { text: batch.text }),
      ...(options.expectPeer === undefined ? {} : { expectPeer: options.expectPeer }),
      ...(options.reach === undefined ? {} : { reach: options.reach }),
    },
  );
}

/** The channel with every frame this side sends rewritten first: the engine's test seam. */
function rewritingSends(channel: ChannelPort, rewrite: (frame: Frame) => Frame): ChannelPort {
  return {
    send: (frame) => channel.send(rewrite(frame)),
    bufferedAmount: () => channel.bufferedAmount(),
    setBufferedAmountLowThreshold: (bytes) => channel.setBufferedAmountLowThreshold(bytes),
    maxMessageSize: () => channel.maxMessageSize(),
    relayed: () => channel.relayed(),
    roundTripMs: () => channel.roundTripMs?.(),
    fingerprints: () => channel.fingerprints(),
    get isClosed() {
      return channel.isClosed;
    },
    listen: (handlers) => channel.listen(handlers),
    close: (graceMs) => channel.close(graceMs),
    released: channel.released,
  };
}

/** Links named in the warning before the rest are only counted. */
const SKIPPED_LINKS_NAMED = 3;

function skippedLinksWarning(links: readonly string[]): string {
  const named = links.slice(0, SKIPPED_LINKS_NAMED).join(', ');
  const more = links.length - SKIPPED_LINKS_NAMED;
  const list = more > 0 ? `${named} and ${more} more` : named;
  return `Links inside a folder are left out, with what they point to: ${list}`;
}

function announce(files: readonly SendFile[], options: SendOptions): Promise<SenderFile[]> {
  const seam = options.testSeam?.announce;
  return Promise.all(
    files.map(async (file, index) => {
      const told = seam?.({ name: file.name, size: file.size }, index) ?? {};
      return {
        id: await nativeSenderFileId(file),
        fileName: told.fileName ?? file.name,
        fileSize: told.fileSize ?? file.size,
      };
    }),
  );
}
