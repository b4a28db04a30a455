import { tau2View } from '../../../core/contract';
import { useMemo } from 'react';
import { compareTau2Trials, formatReward, type Tau2TrialRow } from '../../../core/contract';
import { safeLabel } from '../../../ui/fold';
import { FoldedText } from '../../../ui/folded-text';
import { otherTrials } from '../../../store/trials-slice';
import { useApp } from '../../../ui/store-context';
import { CompareTrialPicker } from '../trial-compare';

const KIND: Readonly<Record<Tau2TrialRow['kind'], string>> = { action: 'reference action', extra: 'other calls', check: 'check', db: 'DB record' };

/**
 * "Compare with trial…" on a τ² simulation: another trial of its task beside it — each reference action,
 * the calls that match none, each check and the DB records that differ from gold, on both sides, and the
 * first row where they part.
 */
export function Tau2TrialCompare() {
  const selected = useApp((s) => s.selected);
  const trials = useApp((s) => (s.selected === null ? 0 : otherTrials(s.runs.a.headers, s.selected).length));
  const run = useApp((s) => s.runs.a.id);
  const mine = useApp((s) => tau2View(s.view));
  const c = useApp((s) => (s.trialCompare && s.trialCompare.run === run && s.trialCompare.index === selected ? s.trialCompare : null));
  const other = tau2View(c?.view);
  const cmp = useMemo(() => (mine && other ? compareTau2Trials(mine, other) : null), [mine, other]);
  if (selected === null || trials === 0) return null;
  return (
    <section aria-label="Compare with another trial" className="border-b border-slate-200 bg-white px-3 py-1.5" data-testid="tau2-trial-compare">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <CompareTrialPicker />
        {c && !cmp && <span>{c.error ? `Cannot compare: ${safeLabel(c.error, 300)}` : 'Judging the other trial…'}</span>}
        {cmp && (
          <span data-testid="tau2-trial-rewards">
            A: simulation {cmp.a.index} (trial {safeLabel(cmp.a.trial, 20)}) reward {formatReward(cmp.a.reward)} · B: simulation {cmp.b.index} (trial{' '}
            {safeLabel(cmp.b.trial, 20)}) reward {formatReward(cmp.b.reward)}
          </span>
        )}
      </div>
      {cmp && (
        <>
          <p className={`mt-1 text-xs ${cmp.parts ? 'font-medium text-amber-900' : 'text-slate-600'}`} data-testid="tau2-trial-parts">
            {cmp.parts
              ? `${cmp.parts.onWrite ? 'They part' : 'Same writes, but they part'} at row ${cmp.parts.row + 1}: ${safeLabel(cmp.parts.why, 600)}`
              : 'Every row agrees: the same reference actions, writes, checks and DB.'}
          </p>
          <div className="mt-1 overflow-x-auto">
            <table className="w-full border-collapse text-xs" data-testid="tau2-trial-table">
              <thead>
                <tr className="border-b border-slate-200 text-left text-slate-600">
                  <th className="px-1 py-0.5 font-medium">#</th>
                  <th className="px-1 py-0.5 font-medium">what</th>
                  <th className="px-1 py-0.5 font-medium">A (this one)</th>
                  <th className="px-1 py-0.5 font-medium">B</th>
                </tr>
              </thead>
              <tbody>
                {cmp.rows.map((r, i) => (
                  <tr
                    key={i}
                    className={`border-b border-slate-100 align-top ${r.apart ? 'bg-amber-50' : ''}`}
                    data-testid="tau2-trial-row"
                    data-apart={r.apart}
                  >
                    <td className="px-1 py-0.5 tabular-nums text-slate-600">{i + 1}</td>
                    <td className="px-1 py-0.5 break-all">
                      <span className="text-slate-600">{KIND[r.kind]}: </span>
                      <FoldedText text={r.name} limit={300} />
                    </td>
                    <td className="px-1 py-0.5 break-words">{safeLabel(r.a, 500)}</td>
                    <td className="px-1 py-0.5 break-words">{safeLabel(r.b, 500)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
