import { useId } from 'react';
import { useStore } from 'zustand';
import { asSentence } from '../../src-shared/format/as-sentence';
import { textMessageWords, textSenderLine } from '../../src-shared/transfer/text-message-words';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';
import { RememberDevice } from './remember-device';
import { StepHeading } from './step-heading';
import { CopyableText } from './copyable-text';

type Done = Extract<TransferView, { phase: 'done' }>;

/**
 * A text message that arrived (docs/protocol.md, "Text messages"), shown as plain text with a
 * Copy button; a short one comes here without a prompt before it (docs/architecture.md, "The
 * application core"), so this is where the person first hears of it.
 */
export function ReceivedText({ view, text }: { view: Done; text: string }) {
  const { transfer } = useFerryStores();
  const dismiss = useStore(transfer, (state) => state.dismiss);
  const headingId = useId();

  return (
    <section className="step" aria-labelledby={headingId} data-testid="transfer-done">
      <StepHeading id={headingId}>{textSenderLine(view.peer)}</StepHeading>
      <p>
        {asSentence(
          `${textMessageWords(text)}${view.verified === true ? ', verified' : ''}, not saved`,
        )}
      </p>
      <CopyableText text={text} label="Received text" />
      {view.peer !== undefined && <RememberDevice key={view.peer.fingerprint} peer={view.peer} />}
      <div className="actions">
        <button type="button" className="button button--primary" onClick={() => void dismiss()}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
