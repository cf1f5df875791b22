import { formatBytes } from '../../src-shared/format/format-bytes';
import {
  connectingStageLabel,
  NOT_CONFIRMED,
  reconnectingLine,
  RETRYING_THE_CONNECTION,
} from '../../src-shared/transfer/transfer-view';
import { textMessageProblem } from '../../src-shared/session/text-message';
import { sendFiles, sendText, type SendOptions } from '../engine';
import type { CliIo } from './cli-io';
import { EXIT, type ExitCode } from './exit-codes';
import { deliveredFileLines } from './delivered-files';
import { followTransfer } from './follow-transfer';
import type { Command } from './parse-args';
import { browserReceiveLine, receiveCommandLine } from './receive-command-line';
import { confirmWords, verifyLinePrinter } from './verify-words';
import { rememberPeer, setUpTransfer, type TransferSetup } from './cli-devices';
import { reachByName } from './send-reach';
import type { Reach } from '../../src-shared/nearby/nearby-ports';

type SendCommand = Extract<Command, { kind: 'send' }>;

export async function runSend(
  command: SendCommand,
  io: CliIo,
  ver: string,
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  const text = command.text === '-' ? await io.readInput?.() : command.text;
  const problem = text === undefined ? undefined : textMessageProblem(text);
  if (problem !== undefined) {
    io.error(`Error: ${problem}.`);
    return EXIT.usage;
  }
  const setup = await setUpTransfer(command, io, env);
  if (typeof setup === 'number') return setup;
  if (command.reach === undefined) return send(command, text, setup, undefined, io, ver);
  // No code: the device named is found first, and is told the room once it exists.
  io.out.write(`Looking for “${command.reach}”...\n`);
  const looking = new AbortController();
  const stopLooking = io.onInterrupt(() => looking.abort());
  const reaching = await reachByName(command.reach, setup, looking.signal).finally(stopLooking);
  if (looking.signal.aborted) {
    if (!('problem' in reaching)) reaching.close();
    return EXIT.interrupted;
  }
  if ('problem' in reaching) {
    io.error(`Error: ${reaching.problem}.`);
    return reaching.exit;
  }
  try {
    return await send(command, text, setup, reaching.reach, io, ver);
  } finally {
    reaching.close();
  }
}

async function send(
  command: SendCommand,
  text: string | undefined,
  setup: TransferSetup,
  reach: Reach | undefined,
  io: CliIo,
  ver: string,
): Promise<ExitCode> {
  const printVerify = verifyLinePrinter(io);
  // A LAN room serves the web client at its own address; another server may serve none.
  const webClient = command.server.kind === 'lan' ? setup.serverUrl : undefined;
  const { installation } = setup;
  const options: Omit<SendOptions, 'paths'> = {
    serverUrl: setup.serverUrl,
    serverCertificate: setup.serverCertificate,
    ver,
    remedySurface: 'cli',
    ...setup.options,
    ...(reach === undefined ? {} : { reach }),
    // No file data leaves until the person answers (docs/protocol.md, "Verification words").
    // A device is remembered only once the person confirmed its words.
    ...((command.verify || command.remember !== undefined) && {
      onPeerCheck: (check) => {
        printVerify(check);
        return confirmWords(check, io);
      },
    }),
  };
  const transfer =
    text === undefined
      ? sendFiles({ ...options, paths: command.paths })
      : sendText({ ...options, text });
  return followTransfer(transfer, io, 'Sending', (state, display) => {
    switch (state.phase) {
      case 'waiting-for-peer': {
        const files =
          text !== undefined
            ? 'a text'
            : state.files.length === 1
              ? '1 file'
              : `${state.files.length} files`;
        if (reach !== undefined) {
          display.line(`Ready to send ${files} (${formatBytes(state.totalBytes)}).`);
          display.line(`Waiting for “${reach.name}” to answer...`);
          break;
        }
        // Printed on its own line the moment the code exists: scripts and people read it.
        display.line(`Code: ${state.code}`);
        display.line(`Ready to send ${files} (${formatBytes(state.totalBytes)}).`);
        // The key rides with the code, so the receiver proves the connection by itself
        // (docs/protocol.md, "Secret link").
        display.line(`On the other device run: ${receiveCommandLine(state.code, state.key)}`);
        display.line(browserReceiveLine(state.code, state.key, webClient));
        display.line('Waiting for the receiver...');
        break;
      }
      case 'connecting':
        display.status(
          state.retry !== undefined
            ? RETRYING_THE_CONNECTION
            : state.stage === 'direct'
              ? 'Receiver joined; connecting directly...'
              : `${connectingStageLabel(state.stage)}...`,
        );
        break;
      case 'waiting-for-acceptance':
        // Published again once the words are known, before the first byte of file data.
        if (state.peerCheck === undefined) {
          display.line('Connected; waiting for the receiver to accept...');
        } else printVerify(state.peerCheck);
        break;
      case 'reconnecting':
        display.line(
          `${reconnectingLine(state.attempt)} ${formatBytes(state.bytesDone)} of ${formatBytes(state.totalBytes)} kept.`,
        );
        break;
      case 'done': {
        const files = state.files.length === 1 ? '1 file' : `${state.files.length} files`;
        const how = state.verified === true ? 'Delivered and verified' : 'Delivered';
        display.line(
          `${how} ${files} (${formatBytes(state.totalBytes)} sent)${state.confirmed === false ? ` ${NOT_CONFIRMED}` : ''}.`,
        );
        for (const line of deliveredFileLines(state.files)) display.line(line);
        if (command.remember !== undefined && installation !== undefined) {
          return rememberPeer(installation, command.remember, state.peer, io);
        }
        break;
      }
      default:
        break;
    }
  });
}
