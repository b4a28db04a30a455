import { safeLabel } from '../../ui/fold';
import { useMemo } from 'react';
import { benchmarkOf, type BenchmarkDescriptor } from '../../core/contract';
import { rulesOf } from '../../store/benchmark-rules';
import { formatAverage, runAverages, type Average } from '../../store/run-stats';
import { Button } from '../../ui/button';
import { FOCUS_RING_TIGHT } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';
import { OutcomeGrid } from './outcome-grid';
import { IgnoredCounts } from './ignored-counts';
import { PassKChart } from '../../ui/pass-k-chart';

function Stat({
  label,
  value,
  note,
  tone,
  onClick,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  tone?: string;
  onClick?: () => void;
  testId?: string;
}) {
  const body = (
    <>
      <span className="block text-[11px] text-slate-600">{label}</span>
      <span className={`block text-sm font-semibold tabular-nums ${tone ?? 'text-slate-900'}`}>{value}</span>
      {note && <span className="block text-[10px] leading-tight text-slate-600">{note}</span>}
    </>
  );
  return onClick ? (
    <button type="button" onClick={onClick} className={`rounded-md px-1.5 py-0.5 text-left hover:bg-slate-100 ${FOCUS_RING_TIGHT}`} data-testid={testId}>
      {body}
    </button>
  ) : (
    <div className="px-1.5 py-0.5" data-testid={testId}>
      {body}
    </div>
  );
}

/** "2 crashed episodes count 0, as τ-bench reports" and the like: what the denominator holds (`bench`: whose report). */
function denominatorNote(a: Average, bench: BenchmarkDescriptor, missing = 0): string {
  const parts: string[] = [];
  if (a.zeroed > 0) parts.push(`${a.zeroed} crashed or not evaluable count 0, as ${bench.short} reports`);
  else parts.push(`every ${bench.noun} counts, as ${bench.short} reports`);
  if (missing > 0) parts.push(`${missing} without a recorded reward left out`);
  return parts.join('; ');
}

/** Averages with their denominators, disagreements, the pass^k curve and the task × trial grid. */
export function RunSummary({ rows }: { rows: readonly number[] }) {
  const store = useAppStore();
  const headers = useApp((s) => s.runs.a.headers);
  const summaries = useApp((s) => s.runs.a.summaries);
  const open = useApp((s) => s.layout.chartsOpen);
  const about = useApp((s) => s.runs.a.about);
  const a = useMemo(() => runAverages(headers, summaries), [headers, summaries]);
  // The run's benchmark gives the words, the pass^k convention and the note under the count (τ²: its domain, solo).
  const benchmark = useApp((s) => s.runs.a.benchmark);
  const bench = benchmarkOf(benchmark?.kind);
  const pass = useMemo(() => rulesOf(benchmark).passK(headers, summaries, benchmark), [headers, summaries, benchmark]);
  const note = rulesOf(benchmark).note(benchmark);
  return (
    <section aria-label="Run summary" className="border-b border-slate-200 bg-white" data-testid="run-summary">
      <div className="flex flex-wrap items-start gap-x-2 gap-y-1 px-2 pt-1.5">
        <Stat label={bench.nouns.charAt(0).toUpperCase() + bench.nouns.slice(1)} value={String(a.episodes)} {...(note !== undefined && { note })} />
        <Stat
          label="Avg reward, recorded"
          value={formatAverage(a.recorded)}
          note={denominatorNote(a.recorded, bench, a.recorded.missing)}
          testId="avg-recorded"
        />
        <Stat
          label={a.complete ? 'Avg reward, recomputed' : `Recomputed so far (${a.recomputed.count} of ${a.episodes})`}
          value={formatAverage(a.recomputed)}
          note={
            a.complete
              ? denominatorNote(a.recomputed, bench)
              : `recorded over the same ${a.recordedSameEpisodes.count}: ${formatAverage(a.recordedSameEpisodes)}`
          }
          testId="avg-recomputed"
        />
        <Stat
          label="≠ recorded"
          value={String(a.disagree)}
          tone={a.disagree ? 'text-violet-700' : 'text-slate-900'}
          {...(a.disagree ? { onClick: () => store.getState().setFilters({ reason: 'disagree' }) } : {})}
        />
        <Stat
          label="Not evaluable"
          value={String(a.errors)}
          tone={a.errors ? 'text-amber-700' : 'text-slate-900'}
          {...(a.errors ? { onClick: () => store.getState().setFilters({ reason: 'error' }) } : {})}
        />
        <Button variant="quiet" aria-expanded={open} onClick={() => store.getState().toggleLayout('chartsOpen')} className="ml-auto text-xs">
          {open ? 'Hide charts' : 'Show charts'}
        </Button>
      </div>
      {about.map((line, i) => (
        <p key={i} className="px-2 pb-1 text-xs break-words text-slate-700" data-testid="run-about">
          {safeLabel(line, 1000)}
        </p>
      ))}
      <IgnoredCounts summaries={summaries} />
      {open && (
        <div className="grid gap-x-4 gap-y-3 px-3 pt-1 pb-2.5 @2xl:grid-cols-[minmax(11rem,16rem)_minmax(0,1fr)]">
          <PassKChart recomputed={pass.recomputed} recorded={pass.recorded} complete={a.complete} />
          <OutcomeGrid rows={rows} />
        </div>
      )}
    </section>
  );
}
