import { useId, type ReactNode } from 'react';
import { CancelTransfer } from './cancel-transfer';
import { StepHeading } from './step-heading';

/** A step where Ferry waits on the server or the other person: what is happening, and Cancel. */
export function WaitingStep({ heading, children }: { heading: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="step" aria-labelledby={headingId} aria-busy="true">
      <StepHeading id={headingId}>
        <span className="spinner" aria-hidden="true" />
        {heading}
      </StepHeading>
      {children}
      <CancelTransfer />
    </section>
  );
}
