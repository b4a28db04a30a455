import { formatReward, tau2View, type BenchmarkView, type Tau2SimView } from '../../../core/contract';
import { isSuccess } from '../../../core/contract';
import { FoldedText } from '../../../ui/folded-text';

/** What a τ² simulation's reward is the product of, in a few words: the basis components below 1, or how it ended. */
function verdictWords(v: Tau2SimView): string {
  if (v.error !== null) return `not judged: ${v.error}`;
  if (v.premature) return `ended early (${v.termination}): τ² gives 0 and runs no check`;
  const failed = Object.entries(v.breakdown ?? {}).filter(([, r]) => r < 1);
  return failed.length
    ? `below 1: ${failed.map(([c, r]) => `${c} ${formatReward(r)}`).join(', ')}`
    : `every component of the basis (${(v.basis ?? []).join(', ')}) is 1`;
}

/** A τ² simulation in a compare column: its verdict in one line and its messages with each call and its replayed output. */
export function Tau2SimBrief({ view }: { view: BenchmarkView }) {
  const sim = tau2View(view);
  if (!sim) return null;
  return (
    <>
      <p
        className={`mt-2 rounded border px-2 py-1 text-sm ${isSuccess(sim.reward) ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-rose-200 bg-rose-50 text-rose-900'}`}
        data-testid="compare-verdict"
      >
        <span className="font-semibold">reward {formatReward(sim.reward)}</span> · {verdictWords(sim)}
      </p>
      <ol className="mt-2 space-y-1.5" data-testid="compare-dialogue">
        {sim.messages
          .filter((m) => m.role !== 'system' && m.role !== 'tool')
          .map((m) => (
            <li key={m.index} className={`border-l-2 pl-2 text-xs ${m.role === 'user' ? 'border-sky-400' : 'border-violet-400'}`}>
              <span className="font-semibold text-slate-700">{m.role}</span>
              {m.content !== null && m.content !== '' && (
                <div className="break-words whitespace-pre-wrap text-slate-800">
                  <FoldedText text={m.content} limit={2000} />
                </div>
              )}
              {m.calls.map((c) => (
                <div key={c.index} className="mt-0.5 font-mono text-[11px] break-all text-slate-700" data-testid="compare-call">
                  → {c.name}(<FoldedText text={c.arguments} limit={600} />) ⇒ <FoldedText text={c.output ?? '(unknown tool: not run)'} limit={300} />
                </div>
              ))}
            </li>
          ))}
      </ol>
    </>
  );
}
