import type { Tau2Recorded, Tau2SimView } from '../../core/contract';
import { FoldedText } from '../../ui/folded-text';
import { safeLabel } from '../../ui/fold';

/** τ²'s names for what it recorded. */
const TITLE: Record<string, string> = {
  review: 'Review of the conversation (agent and user errors)',
  user_only_review: 'Review of the user simulator',
  auth_classification: 'Authentication classification',
  hallucination_check: 'Hallucination check (user simulator)',
  hallucination_retries_used: 'Retries after a user-simulator hallucination',
};

function Value({ v, depth }: { v: Tau2Recorded; depth: number }) {
  if (v.kind === 'scalar')
    return v.type === 'str' ? (
      <span className="break-words whitespace-pre-wrap">
        <FoldedText text={v.text} limit={4000} />
      </span>
    ) : (
      <span className="font-mono">{v.text}</span>
    );
  if (v.kind === 'list')
    return v.items.length === 0 ? (
      <span className="text-slate-600">none</span>
    ) : (
      <ol className="flex flex-col gap-1">
        {v.items.map((x, i) => (
          <li key={i} className="rounded border border-slate-200 bg-white p-1">
            <Value v={x} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  if (depth > 6) return <span className="text-slate-600">…</span>;
  return (
    <dl className="grid grid-cols-[minmax(6rem,auto)_minmax(0,1fr)] gap-x-2 gap-y-0.5">
      {v.entries.map(([k, x]) => (
        <div key={k} className="contents">
          <dt className="font-mono text-[11px] text-slate-600">{safeLabel(k, 80)}</dt>
          <dd className="min-w-0">
            <Value v={x} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The reviews τ² recorded with the simulation, as recorded: an LLM judged them when the run was made; nothing here recomputes them. */
export function Tau2Reviews({ view }: { view: Tau2SimView }) {
  if (view.reviews.length === 0)
    return (
      <p className="px-3 py-2 text-xs text-slate-600" data-testid="tau2-reviews-none">
        This simulation carries no recorded review (τ² records <code className="font-mono">review</code>, <code className="font-mono">auth_classification</code>{' '}
        and <code className="font-mono">hallucination_check</code> when a run is made with them).
      </p>
    );
  return (
    <div className="px-3 py-2 text-xs text-slate-800" data-testid="tau2-reviews">
      <p className="mb-2 rounded bg-teal-50 px-1.5 py-0.5 text-teal-900" data-testid="tau2-reviews-recorded">
        Recorded when the run was made (judged by an LLM then), shown as recorded: not recomputed, and not part of the reward.
      </p>
      {view.reviews.map((r) => (
        <section key={r.field} className="mb-2" data-testid="tau2-review" data-field={r.field}>
          <h4 className="text-[11px] font-semibold tracking-wide text-slate-600 uppercase">
            {TITLE[r.field] ?? safeLabel(r.field, 80)} <span className="font-mono font-normal normal-case">({safeLabel(r.field, 60)}, recorded)</span>
          </h4>
          <div className="mt-0.5">
            <Value v={r.value} depth={0} />
          </div>
        </section>
      ))}
    </div>
  );
}
