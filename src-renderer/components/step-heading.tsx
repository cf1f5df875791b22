import { useEffect, useRef, type ReactNode } from 'react';

/** A transfer step's heading; it takes focus when the step appears, so the change is announced. */
export function StepHeading({ id, children }: { id: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h2 id={id} ref={heading} tabIndex={-1} className="step-heading">
      {children}
    </h2>
  );
}
