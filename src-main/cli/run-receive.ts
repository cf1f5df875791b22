import { resolve } from 'node:path';
import { formatBytes } from '../../src-shared/format/format-bytes';
import type { ExpectedPeer } from '../../src-shared/session/expected-peer';
import {
  connectingStageLabel,
  reconnectingLine,
  RETRYING_THE_CONNECTION,
} from '../../src-shared/transfer/transfer-view';
import { receiveFiles } from '../engine';
import type { CliIo } from './cli-io';
import { acceptQuestion, describeOffer } from './describe-offer';
import type { ExitCode } from './exit-codes';
import { deliveredFileLines } from './delivered-files';
import { followTransfer } from './follow-transfer';
import type { Command } from './parse-args';
import { confirmWords, verifyLine } from './verify-words';
import { rememberPeer, setUpTransfer, type TransferSetup } from './cli-devices';
import { shownText } from './shown-text';

type ReceiveCommand = Extract<Command, { kind: 'receive' }>;

const YES = /^\s*y(es)?\s*$/i;

export async function runReceive(
  command: ReceiveCommand,
  io: CliIo,
  ver: string,
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  const setup = await setUpTransfer(command, io, env);
  if (typeof setup === 'number') return setup;
  const from = { code: command.code, ...(command.key === undefined ? {} : { key: command.key }) };
  return receiveOnce(command, from, setup, io, ver);
}

/** How the person answers an offer, and what is done once it arrived. */
export interface ReceiveChoices {
  out: string;
  yes: boolean;
  verify: boolean;
  report: boolean;
  remember?: string;
}

/**
 * Where the sender is found: by the code the person typed, or by an invitation's room
 * (docs/protocol.md, "Pair rooms" and "Presence"), pinned to the remembered device it came from.
 */
export type ReceiveFrom =
  { code: string; key?: string } | { roomId: string; sender: string; expectPeer?: ExpectedPeer };

/** One receive as `ferry receive` runs it: the offer asked about, progress and outcome printed. */
export function receiveOnce(
  choices: ReceiveChoices,
  from: ReceiveFrom,
  setup: TransferSetup,
  io: CliIo,
  ver: string,
): Promise<ExitCode> {
  const { installation } = setup;
  const destination = resolve(choices.out);
  const finding =
    'code' in from
      ? `Finding the sender of ${from.code}...`
      : `Joining “${from.sender}” in the room it chose...`;
  const transfer = receiveFiles({
    serverUrl: setup.serverUrl,
    serverCertificate: setup.serverCertificate,
    ...('code' in from
      ? { code: from.code, ...(from.key === undefined ? {} : { linkSecret: from.key }) }
      : { code: '', roomId: from.roomId }),
    destination,
    reportBytes: choices.report,
    ver,
    remedySurface: 'cli',
    ...setup.options,
    ...('expectPeer' in from && from.expectPeer !== undefined
      ? { expectPeer: from.expectPeer }
      : {}),
    onOffer: async (offer) => {
      io.out.write(`${describeOffer(offer)}\n`);
      // Before the prompt, and with --yes before the ack: no file data has moved yet.
      io.out.write(`${verifyLine(offer.peerCheck)}\n`);
      // A device is remembered only once the person confirmed its words.
      const confirms = choices.verify || choices.remember !== undefined;
      if (confirms && !(await confirmWords(offer.peerCheck, io))) return false;
      if (choices.yes) return true;
      const answer = await io.ask(acceptQuestion(destination, offer.textMessage === true));
      return answer !== null && YES.test(answer);
    },
  });
  return followTransfer(transfer, io, 'Receiving', (state, display) => {
    switch (state.phase) {
      case 'connecting':
        // One line per stage of the connection, as the session reports it.
        display.status(
          state.retry !== undefined
            ? RETRYING_THE_CONNECTION
            : state.stage === 'finding'
              ? finding
              : `${connectingStageLabel(state.stage)}...`,
        );
        break;
      case 'reconnecting':
        display.line(
          `${reconnectingLine(state.attempt)} ${formatBytes(state.bytesDone)} of ${formatBytes(state.totalBytes)} kept.`,
        );
        break;
      case 'done':
        // A text message is shown, never saved: printed whole, as plain text, after its label.
        if (state.text !== undefined) {
          display.line(`Received a text (${formatBytes(state.totalBytes)}).`);
          display.line('Text:');
          display.line(shownText(state.text));
          break;
        }
        display.line(
          `Received ${state.files.length === 1 ? '1 file' : `${state.files.length} files`} (${formatBytes(state.totalBytes)}) into ${state.folder ?? destination}:`,
        );
        for (const line of deliveredFileLines(state.files, true)) display.line(line);
        if (choices.remember !== undefined && installation !== undefined) {
          return rememberPeer(installation, choices.remember, state.peer, io);
        }
        break;
      default:
        break;
    }
  });
}
