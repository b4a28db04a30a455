import { Fragment } from 'react';
import { tau2Of } from '../../../store/tau2/opened';
import { safeLabel } from '../../../ui/fold';
import { useApp } from '../../../ui/store-context';
import type { RunFacts } from '../detection-line';

/** τ²'s part of the run line: how τ² judges (one rule), where the data came from, and what the file says (its notes). */
export const TAU2_FACTS: RunFacts = {
  Line() {
    const ready = useApp((s) => s.runs.a.ready);
    const origin = useApp((s) => s.runs.a.origin);
    const loading = useApp((s) => s.runs.a.dataProgress !== null && s.runs.a.dataError === null);
    return (
      <span className="hidden max-w-full min-w-0 truncate sm:inline">
        <span className="text-slate-600">{ready ? 'Judged as τ² v1.0.1 evaluate_simulation (ALL) · data from ' : ''}</span>
        <span className="text-slate-800" title={ready ?? undefined}>
          {ready ? (origin?.label ?? '') : loading ? 'loading τ² data…' : 'no data yet: recomputed rewards appear once τ²-bench data is loaded'}
        </span>
      </span>
    );
  },
  Why() {
    const ready = useApp((s) => s.runs.a.ready);
    const notes = useApp((s) => tau2Of(s.runs.a)?.notes ?? []);
    return (
      <>
        <dt className="text-slate-600">Rule</dt>
        <dd>
          τ² v1.0.1 evaluate_simulation with EvaluationType.ALL: premature terminations get 0 and no check; otherwise the product of the task’s reward_basis
          components (DB, env assertions, actions, communicate; NL assertions as recorded, never recomputed). Replayed as the run was judged when it was made
          (strictly; in solo mode when the agent was a solo agent); where tau2 evaluate-trajs would give another reward, the simulation’s findings say so
        </dd>
        {ready && (
          <>
            <dt className="text-slate-600">Data</dt>
            <dd className="break-all">{ready}</dd>
          </>
        )}
        {notes.map((n, i) => (
          <Fragment key={i}>
            <dt className="text-slate-600">Note</dt>
            <dd>{safeLabel(n, 1000)}</dd>
          </Fragment>
        ))}
      </>
    );
  },
};
