import { useId } from 'react';
import { isCodeShape, normalizeCode } from '../../src-shared/codes';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { keyFor } from '../stores/code-draft-store';
import { useFerryStores } from '../stores/stores-context';
import type { FerryStores } from '../stores/ferry-stores';
import { asSentence } from '../../src-shared/format/as-sentence';
import { describeFailure } from '../wording/describe-failure';
import { StepHeading } from './step-heading';

type Failed = Extract<TransferView, { phase: 'failed' }>;

/** Leaves the failure and, when the family allows, starts the same attempt over. */
async function leave(stores: FerryStores, view: Failed, retry: boolean): Promise<void> {
  const { transfer, selection, codeDraft } = stores;
  if (!(await transfer.getState().dismiss()) || !retry) return;
  if (view.direction === 'send') {
    const { items } = selection.getState();
    if (items.length > 0) await transfer.getState().startSend(items);
    return;
  }
  const draft = codeDraft.getState();
  if (isCodeShape(normalizeCode(draft.draft))) {
    await transfer.getState().startReceive(draft.draft, keyFor(draft));
  }
}

/**
 * One heading per kind of failure, the engine's own sentence, and the way forward. What a person
 * chose, here or on the other device, is said plainly rather than as an error.
 */
export function TransferFailed({ view }: { view: Failed }) {
  const stores = useFerryStores();
  const { heading, retry, chosen, sendAgain, againLabel } = describeFailure(view.code);
  const headingId = useId();
  const again = sendAgain === true && view.direction === 'send';
  const sentence = chosen === undefined ? asSentence(view.message) : chosen.says;
  return (
    <section
      className={chosen === undefined ? 'step step--failed' : 'step step--outcome'}
      role={chosen === undefined ? 'alert' : undefined}
      aria-labelledby={headingId}
    >
      <StepHeading id={headingId}>{heading}</StepHeading>
      {sentence !== undefined && <p>{sentence}</p>}
      <div className="actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => void leave(stores, view, retry || again)}
        >
          {again ? (againLabel ?? 'Send again') : retry ? 'Try again' : 'Back'}
        </button>
      </div>
    </section>
  );
}
