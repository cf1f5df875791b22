import { useEffect, useRef, type ReactNode } from 'react';
import { pageUsed } from './rescue-focus';

/**
 * A transfer step's heading; it takes focus when the step appears in a page the person is using,
 * so the change is announced.
 */
export function StepHeading({ id, children }: { id: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (pageUsed()) heading.current?.focus();
  }, []);
  return (
    <h2 id={id} ref={heading} tabIndex={-1} className="step-heading">
      {children}
    </h2>
  );
}
