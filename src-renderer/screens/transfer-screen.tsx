import { countOf } from '../../src-shared/format/count-of';
import { textMessageWords } from '../../src-shared/transfer/text-message-words';
import { formatBytes } from '../../src-shared/format/format-bytes';
import {
  reconnectingLine,
  RETRYING_THE_CONNECTION,
  type TransferView,
} from '../../src-shared/transfer/transfer-view';
import { AcceptPrompt } from '../components/accept-prompt';
import { ConnectingStages } from '../components/connecting-stages';
import { CodeReady } from '../components/code-ready';
import { PeerCheckLine } from '../components/peer-check-line';
import { WordsQuestion } from '../components/words-question';
import { TransferDone } from '../components/transfer-done';
import { TransferFailed } from '../components/transfer-failed';
import { TransferProgress } from '../components/transfer-progress';
import { WaitingStep } from '../components/waiting-step';

type ActiveTransferView = Exclude<TransferView, { phase: 'idle' }>;

/** The transfer under way, whichever side this is, one step at a time. */
export function TransferScreen({ view }: { view: ActiveTransferView }) {
  switch (view.phase) {
    case 'registering':
      return (
        <WaitingStep heading="Getting a code">
          <p>
            Asking the server for a code to send{' '}
            {view.text === undefined
              ? `${countOf(view.files.length, 'file')} (${formatBytes(view.totalBytes)})`
              : textMessageWords(view.text)}
            .
          </p>
        </WaitingStep>
      );
    case 'waiting-for-peer':
      // A send without a code waits for the one device it was offered to (docs/architecture.md,
      // "Nearby devices").
      return view.to === undefined ? (
        <CodeReady view={view} />
      ) : (
        <WaitingStep heading={`Waiting for ${view.to} to answer`}>
          <p>
            {view.to} was asked to take{' '}
            {view.text === undefined
              ? `${countOf(view.files.length, 'file')} (${formatBytes(view.totalBytes)})`
              : textMessageWords(view.text)}
            , with no code.
          </p>
        </WaitingStep>
      );
    case 'connecting':
      return (
        <WaitingStep heading={view.retry === undefined ? 'Connecting' : RETRYING_THE_CONNECTION}>
          {view.retry !== undefined ? (
            <p>The first try did not get through. Trying again on a fresh connection.</p>
          ) : view.code === '' ? (
            // No code on either side: a send to one nearby device, or its invitation.
            <p>Setting up a direct, encrypted connection with the other device.</p>
          ) : view.direction === 'send' ? (
            <p>The other device typed the code. Setting up a direct, encrypted connection.</p>
          ) : (
            <p>
              Finding the sender of <span className="inline-code">{view.code}</span> and setting up
              a direct, encrypted connection.
            </p>
          )}
          <ConnectingStages stage={view.stage} />
        </WaitingStep>
      );
    case 'reconnecting':
      return (
        <WaitingStep heading={reconnectingLine(view.attempt)}>
          <p>
            {formatBytes(view.bytesDone)} of {formatBytes(view.totalBytes)} are kept. Both devices
            are finding each other again; nothing needs to be sent twice.
          </p>
        </WaitingStep>
      );
    case 'waiting-for-acceptance':
      return (
        <WaitingStep heading="Waiting for the other person">
          <p>They see what you are sending and choose whether to accept it.</p>
          {view.peerCheck !== undefined && <PeerCheckLine check={view.peerCheck} />}
          {view.wordsAsked === true && <WordsQuestion />}
        </WaitingStep>
      );
    case 'awaiting-acceptance':
      return <AcceptPrompt view={view} />;
    case 'transferring':
      return <TransferProgress view={view} />;
    case 'done':
      return <TransferDone view={view} />;
    case 'failed':
      return <TransferFailed view={view} />;
  }
}
