import { memo, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { EpisodeHeader, EpisodeSummary } from '../../core/contract';
import { isSuccess } from '../../core/contract';
import { taskPassRates } from '../../store/run-stats';
import { formatReward } from '../../core/contract';
import { useOpenRun } from './use-open-run';

type Outcome = 'pass' | 'fail' | 'error' | 'pending' | 'none';

const CELL: Record<Outcome, string> = {
  pass: 'bg-emerald-500 hover:bg-emerald-600',
  fail: 'bg-rose-500 hover:bg-rose-600',
  error: 'bg-amber-400 hover:bg-amber-500',
  pending: 'bg-slate-200 hover:bg-slate-300',
  none: 'bg-transparent',
};

function outcomeOf(s: EpisodeSummary | undefined): Outcome {
  if (!s) return 'pending';
  if (s.error !== null || s.reward === null) return 'error';
  return isSuccess(s.reward) ? 'pass' : 'fail';
}

/** Cell 14 px, gap 3 px. */
const PITCH = 17;
const LABEL_W = 24;

function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(320);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => e && setWidth(e.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Task × trial cells coloured by the recomputed outcome; a ring marks a disagreement with the
 * recorded reward; cells the filters hide are dimmed; under each task, how many trials passed.
 */
export function OutcomeGrid({ rows }: { rows: readonly number[] }) {
  const { store, headers, summaries, selected } = useOpenRun();
  const [ref, width] = useWidth();
  const shown = useMemo(() => new Set(rows), [rows]);
  const filtered = rows.length !== headers.length;
  const rates = useMemo(() => taskPassRates(headers, summaries), [headers, summaries]);
  const { tasks, trials, at } = useMemo(() => {
    const at = new Map<string, EpisodeHeader>();
    const tasks = new Set<number>();
    const trials = new Set<number>();
    for (const h of headers) {
      if (h.taskId === null || h.trial === null) continue;
      tasks.add(h.taskId);
      trials.add(h.trial);
      if (!at.has(`${h.taskId}/${h.trial}`)) at.set(`${h.taskId}/${h.trial}`, h);
    }
    return { tasks: [...tasks].sort((a, b) => a - b), trials: [...trials].sort((a, b) => a - b), at };
  }, [headers]);
  const pick = useMemo(() => (i: number) => store.getState().select(i), [store]);
  if (tasks.length === 0) return null;
  return (
    <figure className="min-w-0">
      <figcaption className="flex items-baseline justify-between gap-2 text-[11px] font-semibold tracking-wide text-slate-600 uppercase">
        <span>
          Tasks × trials{' '}
          <span className="font-normal tracking-normal normal-case">
            ({tasks.length} × {trials.length})
          </span>
        </span>
        <span className="flex items-center gap-2 font-normal tracking-normal normal-case">
          <Legend className="bg-emerald-500" label="1" />
          <Legend className="bg-rose-500" label="0" />
          <Legend className="bg-amber-400" label="error" />
          <Legend className="bg-white ring-2 ring-violet-600 ring-inset" label="≠ rec" />
        </span>
      </figcaption>
      <div ref={ref} className="mt-1.5 max-h-[40vh] space-y-1 overflow-y-auto" role="group" aria-label="Outcome by task and trial" data-testid="outcome-grid">
        {chunk(tasks, Math.max(5, Math.floor((width - LABEL_W) / PITCH))).map((band) => (
          <div key={band[0]} className="flex">
            <div
              className="flex shrink-0 flex-col gap-[3px] pr-1 text-right text-[10px] leading-[14px] text-slate-600"
              style={{ width: LABEL_W }}
              aria-hidden="true"
            >
              {trials.map((tr) => (
                <span key={tr} className="h-3.5">
                  {trials.length > 1 ? `t${tr}` : ''}
                </span>
              ))}
              <span className="h-3.5">{trials.length > 1 ? 'pass' : ''}</span>
              <span className="h-3.5" />
            </div>
            <div className="flex gap-[3px]">
              {band.map((t) => (
                <div key={t} className="flex w-3.5 flex-col gap-[3px]">
                  {trials.map((tr) => {
                    const h = at.get(`${t}/${tr}`);
                    if (!h) return <span key={tr} className="size-3.5" aria-hidden="true" />;
                    const dimmed = filtered && !shown.has(h.index);
                    return (
                      <Cell
                        key={tr}
                        task={t}
                        trial={tr}
                        header={h}
                        summary={summaries[h.index]}
                        passed={rates.get(t)?.passed ?? 0}
                        trials={rates.get(t)?.trials ?? 0}
                        dimmed={dimmed}
                        selected={selected === h.index}
                        pick={pick}
                      />
                    );
                  })}
                  {trials.length > 1 && (
                    <span
                      className="-mx-1 h-3.5 text-center text-[9px] leading-[14px] font-medium text-slate-600 tabular-nums"
                      title={`task ${t}: ${rates.get(t)?.passed ?? 0} of ${rates.get(t)?.trials ?? 0} trials passed`}
                    >
                      {rates.get(t)?.passed ?? 0}
                    </span>
                  )}
                  <span className="-mx-1 h-3.5 text-center text-[10px] leading-[14px] text-slate-600" aria-hidden="true">
                    {t % 5 === 0 ? t : ''}
                  </span>
                </div>
              ))}
            </div>
          </div>
        ))}
      </div>
    </figure>
  );
}

/**
 * One task and trial. Memoised: while a big run loads, a render of the grid (a few a second) redraws only the
 * cells whose verdict or task rate changed, not every cell's labels.
 */
const Cell = memo(function Cell(p: {
  task: number;
  trial: number;
  header: EpisodeHeader;
  summary: EpisodeSummary | undefined;
  passed: number;
  trials: number;
  dimmed: boolean;
  selected: boolean;
  pick: (index: number) => void;
}) {
  const { task: t, trial: tr, header: h, summary: s } = p;
  const o = outcomeOf(s);
  const differs = s?.agrees === false;
  return (
    <button
      type="button"
      onClick={() => p.pick(h.index)}
      aria-label={`Task ${t}, trial ${tr}: ${o === 'pending' ? 'not evaluated yet' : o === 'error' ? 'error' : `reward ${formatReward(s?.reward)}`}, recorded ${formatReward(h.recordedReward)}`}
      title={`task ${t} · trial ${tr} · recomputed ${formatReward(s?.reward)} · recorded ${formatReward(h.recordedReward)} · task passed ${p.passed}/${p.trials}${p.dimmed ? ' · hidden by the filters' : ''}`}
      data-dimmed={p.dimmed ? 'true' : undefined}
      className={`size-3.5 rounded-[3px] ${CELL[o]} ${p.dimmed ? 'opacity-20' : ''} ${differs ? 'ring-2 ring-violet-600 ring-offset-[0.5px]' : ''} ${p.selected ? 'outline-2 outline-offset-1 outline-slate-900' : ''} focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600`}
    />
  );
});

function chunk<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

function Legend({ className, label }: { className: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span className={`inline-block size-3 rounded-[2px] ${className}`} aria-hidden="true" />
      {label}
    </span>
  );
}
