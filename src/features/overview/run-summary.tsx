import { useMemo, useState } from 'react';
import { passHatK, type TrialOutcome } from '../../store/pass-k';
import { Button } from '../../ui/button';
import { FOCUS_RING_TIGHT } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';
import { OutcomeGrid } from './outcome-grid';
import { PassKChart } from './pass-k-chart';

function Stat({ label, value, tone, onClick }: { label: string; value: string; tone?: string; onClick?: () => void }) {
  const body = (
    <>
      <span className="block text-[11px] text-slate-500">{label}</span>
      <span className={`block text-sm font-semibold tabular-nums ${tone ?? 'text-slate-900'}`}>{value}</span>
    </>
  );
  return onClick ? (
    <button type="button" onClick={onClick} className={`rounded-md px-1.5 py-0.5 text-left hover:bg-slate-100 ${FOCUS_RING_TIGHT}`}>
      {body}
    </button>
  ) : (
    <div className="px-1.5 py-0.5">{body}</div>
  );
}

/** Averages, disagreements, the pass^k curve and the task × trial grid. */
export function RunSummary() {
  const store = useAppStore();
  const headers = useApp((s) => s.headers);
  const summaries = useApp((s) => s.summaries);
  const evaluated = useApp((s) => s.evaluated);
  const [open, setOpen] = useState(() => typeof matchMedia === 'undefined' || matchMedia('(min-width: 640px)').matches);
  const stats = useMemo(() => {
    const recorded: TrialOutcome[] = [];
    const recomputed: TrialOutcome[] = [];
    let sumRec = 0;
    let nRec = 0;
    let sumNew = 0;
    let nNew = 0;
    let disagree = 0;
    let errors = 0;
    for (const h of headers) {
      const s = summaries[h.index];
      if (h.recordedReward !== null) {
        sumRec += h.recordedReward;
        nRec++;
        if (h.taskId !== null && h.trial !== null) recorded.push({ taskId: h.taskId, trial: h.trial, reward: h.recordedReward });
      }
      if (!s) continue;
      if (s.agrees === false) disagree++;
      if (s.error !== null || s.reward === null) {
        errors++;
        continue;
      }
      sumNew += s.reward;
      nNew++;
      if (h.taskId !== null && h.trial !== null) recomputed.push({ taskId: h.taskId, trial: h.trial, reward: s.reward });
    }
    return {
      avgRec: nRec ? sumRec / nRec : null,
      avgNew: nNew ? sumNew / nNew : null,
      disagree,
      errors,
      passRec: passHatK(recorded),
      passNew: passHatK(recomputed),
    };
  }, [headers, summaries]);
  const complete = evaluated >= headers.length && headers.length > 0;
  return (
    <section aria-label="Run summary" className="border-b border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-2 pt-1.5">
        <Stat label="Episodes" value={String(headers.length)} />
        <Stat label="Avg reward, recorded" value={stats.avgRec === null ? '—' : stats.avgRec.toFixed(3)} />
        <Stat label={complete ? 'Avg reward, recomputed' : `Recomputed (${evaluated}/${headers.length})`} value={stats.avgNew === null ? '—' : stats.avgNew.toFixed(3)} />
        <Stat
          label="≠ recorded"
          value={String(stats.disagree)}
          tone={stats.disagree ? 'text-violet-700' : 'text-slate-900'}
          {...(stats.disagree ? { onClick: () => store.getState().setFilters({ reason: 'disagree' }) } : {})}
        />
        <Stat label="Not evaluable" value={String(stats.errors)} tone={stats.errors ? 'text-amber-700' : 'text-slate-900'} {...(stats.errors ? { onClick: () => store.getState().setFilters({ reason: 'error' }) } : {})} />
        <Button variant="quiet" className="ml-auto text-xs" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide charts' : 'Show charts'}
        </Button>
      </div>
      {open && (
        <div className="grid gap-x-4 gap-y-3 px-3 pt-1 pb-2.5 sm:grid-cols-[minmax(11rem,14rem)_minmax(0,1fr)]">
          <PassKChart recomputed={stats.passNew} recorded={stats.passRec} complete={complete} />
          <OutcomeGrid />
        </div>
      )}
    </section>
  );
}
