import { CONNECTING_STAGES, type ConnectingStage } from '../../src-shared/transfer/transfer-view';

/**
 * The connection's stages as the session reports them, the current one marked, those before it
 * done: a person sees that something moves, and where it stops when it does.
 */
export function ConnectingStages({ stage }: { stage: ConnectingStage }) {
  const current = CONNECTING_STAGES.findIndex((known) => known.stage === stage);
  return (
    <ol className="connecting-stages" aria-label="Connection steps">
      {CONNECTING_STAGES.map(({ stage: each, label }, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'pending';
        return (
          <li key={each} data-state={state} aria-current={state === 'current' ? 'step' : undefined}>
            {label}
            {state === 'done' && <span className="visually-hidden"> (done)</span>}
          </li>
        );
      })}
    </ol>
  );
}
