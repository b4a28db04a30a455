import type { ComponentType } from 'react';
import { formatReward, isSuccess, tau2View, tauBenchView, type BenchmarkKind, type BenchmarkView, type EpisodeView } from '../../core/contract';
import { FoldedText } from '../../ui/folded-text';
import { Tau2SimBrief } from './tau2/sim-brief';

/** A τ-bench episode in a compare column: its verdict in one line and its messages with each call. */
function TauBenchBrief({ view }: { view: BenchmarkView }) {
  const v: EpisodeView | null = tauBenchView(view);
  if (!v) return null;
  return (
    <>
      <p
        className={`mt-2 rounded border px-2 py-1 text-sm ${isSuccess(v.verdict.reward) ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-rose-200 bg-rose-50 text-rose-900'}`}
        data-testid="compare-verdict"
      >
        <span className="font-semibold">reward {formatReward(v.verdict.reward)}</span> · {v.verdict.sentence}
      </p>
      <ol className="mt-2 space-y-1.5" data-testid="compare-dialogue">
        {v.messages
          .filter((m) => m.role !== 'system')
          .map((m) => (
            <li
              key={m.index}
              className={`border-l-2 pl-2 text-xs ${m.role === 'user' ? 'border-sky-400' : m.role === 'assistant' ? 'border-violet-400' : 'border-slate-300'}`}
            >
              <span className="font-semibold text-slate-700">{m.role}</span>
              {m.stepIndex !== null && <span className="text-slate-600"> · step {m.stepIndex + 1}</span>}
              {m.content !== null && m.content !== '' && (
                <div className="break-words whitespace-pre-wrap text-slate-800">
                  <FoldedText text={m.content} limit={2000} />
                </div>
              )}
              {m.toolCalls.map((c, i) => (
                <div key={i} className="mt-0.5 font-mono text-[11px] break-all text-slate-700">
                  → {c.name}(<FoldedText text={c.arguments} limit={600} />)
                </div>
              ))}
            </li>
          ))}
      </ol>
    </>
  );
}

/**
 * What the compare view shows of an episode of each benchmark (a descriptor entry, as the episode screen's panels
 * are): its brief, and its reward (`null`: not a view of this benchmark).
 */
export const BRIEFS: Readonly<Record<BenchmarkKind, { readonly Brief: ComponentType<{ view: BenchmarkView }>; reward(view: BenchmarkView): number | null }>> = {
  'tau-bench': { Brief: TauBenchBrief, reward: (view) => tauBenchView(view)?.verdict.reward ?? null },
  tau2: { Brief: Tau2SimBrief, reward: (view) => tau2View(view)?.reward ?? null },
};
