import { benchmarkOf } from '../../core/contract';
import { useMemo, useRef, useState } from 'react';
import { isSuccess } from '../../core/contract';
import { apartOf, comparison, type CompareEpisode, type CompareSide } from '../../store/review-slice';
import { runProblem, runReady } from '../../store/run-state';
import { compareTasks } from '../../store/tau2/compare';
import { Button } from '../../ui/button';
import { Chip } from '../../ui/chip';
import { FOCUS_RING_TIGHT } from '../../ui/focus';
import { safeLabel } from '../../ui/fold';
import {
  describeApart,
  formatCounts,
  formatPassK,
  formatReward,
  type EpisodeHeader,
  type EpisodeSummary,
  type JudgedApart,
  type TaskComparison,
} from '../../core/contract';
import { PassKChart } from '../../ui/pass-k-chart';
import { useApp, useAppStore } from '../../ui/store-context';
import { BRIEFS } from './episode-brief';

const FLIP_TEXT = { gained: 'B passes, A did not', lost: 'A passed, B does not' } as const;

/** At the top of the comparison when A and B were judged by other domains, data versions or rules. */
export function JudgedApartWarning({ apart }: { apart: readonly JudgedApart[] }) {
  if (apart.length === 0) return null;
  return (
    <p role="note" className="mt-1 rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-950" data-testid="compare-judged-apart">
      <strong>A and B were judged differently:</strong> {describeApart(apart)}.
      {apart.some((x) => x.what === 'rule') && ' Flips are not counted: under different rules the same trajectory can pass in one run and fail in the other.'}
      {apart.some((x) => x.what === 'domain') && ' The task ids do not name the same tasks.'}
    </p>
  );
}

function Progress({ what, evaluated, total, problem }: { what: string; evaluated: number; total: number; problem: string | null }) {
  return (
    <p className={`text-xs ${problem ? 'text-amber-800' : 'text-slate-600'}`}>
      {what}: {problem ?? `evaluated ${evaluated} of ${total}…`}
    </p>
  );
}

function TaskRow({ t, name, selected, onSelect }: { t: TaskComparison; name: string; selected: boolean; onSelect: () => void }) {
  const tone = t.flip === 'gained' ? 'bg-emerald-50' : t.flip === 'lost' ? 'bg-rose-50' : '';
  return (
    <tr
      className={`${tone} ${selected ? 'outline-2 -outline-offset-2 outline-indigo-500' : ''}`}
      data-testid="compare-task"
      data-task-id={t.taskId}
      data-task-name={name}
      data-flip={t.flip ?? ''}
    >
      <td className="px-2 py-1 whitespace-nowrap">
        <button
          type="button"
          onClick={onSelect}
          className={`rounded px-1 font-mono text-sky-700 underline decoration-sky-300 underline-offset-2 ${FOCUS_RING_TIGHT}`}
          aria-pressed={selected}
        >
          task {safeLabel(name, 80)}
        </button>
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="compare-a">
        {formatCounts(t.a)}
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="compare-b">
        {formatCounts(t.b)}
      </td>
      <td className="px-2 py-1 text-xs">
        {t.flip && (
          <Chip tone={t.flip === 'gained' ? 'border-emerald-300 bg-white text-emerald-800' : 'border-rose-300 bg-white text-rose-800'}>
            {t.flip === 'gained' ? '▲ ' : '▼ '}
            {FLIP_TEXT[t.flip]}
          </Chip>
        )}
      </td>
    </tr>
  );
}

function Trials({
  side,
  indices,
  headers,
  summaries,
  current,
}: {
  side: CompareSide;
  indices: readonly number[];
  headers: readonly EpisodeHeader[];
  summaries: readonly (EpisodeSummary | undefined)[];
  current: number | null;
}) {
  const store = useAppStore();
  if (indices.length === 0) return <p className="text-xs text-slate-600">This run has no episode of the task.</p>;
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label={`Trials in run ${side.toUpperCase()}`}>
      {indices.map((i) => {
        const r = summaries[i]?.reward ?? null;
        const ok = r !== null && isSuccess(r);
        return (
          <Button
            key={i}
            aria-pressed={current === i}
            className={current === i ? 'border-indigo-500 ring-1 ring-indigo-500' : ''}
            onClick={() => store.getState().selectCompareEpisode(side, i)}
          >
            #{i} trial {headers[i]?.trial ?? '–'} · <span className={ok ? 'text-emerald-700' : 'text-rose-700'}>{formatReward(r)}</span>
          </Button>
        );
      })}
    </div>
  );
}

function EpisodeColumn({
  side,
  label,
  ep,
  indices,
  headers,
  summaries,
  narrowHidden,
}: {
  side: CompareSide;
  narrowHidden: boolean;
  label: string;
  ep: CompareEpisode | null;
  indices: readonly number[];
  headers: readonly EpisodeHeader[];
  summaries: readonly (EpisodeSummary | undefined)[];
}) {
  const store = useAppStore();
  // The episode's brief as its benchmark shows one (a descriptor entry, like the episode screen's panels).
  const brief = ep?.view ? BRIEFS[ep.view.benchmark] : null;
  const Brief = brief?.Brief;
  const reward = ep?.view ? brief!.reward(ep.view) : null;
  return (
    <section
      className={`min-w-0 rounded-lg border border-slate-200 bg-white p-2 ${narrowHidden ? 'hidden xl:block' : ''}`}
      data-testid="compare-episode"
      data-side={side}
      data-index={ep?.index ?? ''}
      data-reward={reward === null ? '' : String(reward)}
      aria-label={`Run ${side.toUpperCase()} episode`}
    >
      <div className="flex flex-wrap items-baseline gap-2">
        <h3 className="text-sm font-semibold text-slate-900">
          {side.toUpperCase()} <span className="font-normal text-slate-600">{safeLabel(label, 80)}</span>
        </h3>
        {side === 'a' && ep && (
          <Button
            variant="link"
            className="ml-auto text-xs"
            onClick={() => {
              store.getState().showCompare(false);
              store.getState().select(ep.index, 0);
            }}
          >
            Open in the inspector
          </Button>
        )}
      </div>
      <div className="mt-1">
        <Trials side={side} indices={indices} headers={headers} summaries={summaries} current={ep?.index ?? null} />
      </div>
      {ep && !ep.view && <p className="mt-2 text-xs text-slate-600">{ep.error ? `Cannot show it: ${ep.error}` : 'Loading…'}</p>}
      {Brief && ep?.view && <Brief view={ep.view} />}
    </section>
  );
}

/** ` · reward 1.0` of a drill-down's episode or simulation once it is shown. */
function sideReward(ep: CompareEpisode | null): string {
  const r = ep?.view ? BRIEFS[ep.view.benchmark].reward(ep.view) : null;
  return r === null ? '' : ` · reward ${formatReward(r)}`;
}

/** Two runs task by task: pass rates side by side, the tasks that flipped, pass^k of both, and a task's episodes of each run. */
export function CompareView() {
  const store = useAppStore();
  const a = useApp((s) => s.runs.a);
  const b = useApp((s) => s.runs.b);
  const flipsOnly = useApp((s) => s.compareFlipsOnly);
  const task = useApp((s) => s.compareTask);
  const eps = useApp((s) => s.compareEpisodes);
  const cmp = useMemo(() => comparison(a, b), [a, b]);
  const tasks = useMemo(() => compareTasks(a, b), [a, b]);
  const apart = useMemo(() => apartOf(a, b), [a, b]);
  const drill = useRef<HTMLDivElement>(null);
  /** Narrow screens show one run's episode at a time. */
  const [narrowSide, setNarrowSide] = useState<CompareSide>('a');
  if (b.id === null) return null;
  const { headers, summaries } = a;
  const aLabel = a.source?.label ?? 'run';
  const bLabel = b.source?.label ?? 'run';
  const bProblem = runProblem(b);
  const bDataBase = b.dataRequest?.suggestedBase ?? null;
  const noun = benchmarkOf(a.benchmark?.kind).nouns;
  const named = (r: typeof a): string => `${benchmarkOf(r.benchmark?.kind).domainPrefix}${r.domain ?? ''}`;
  const pick = (taskId: number): void => {
    store.getState().selectCompareTask(taskId);
    // One column (narrow screens): the episodes are below the table, so bring them into view.
    if (drill.current && drill.current.getBoundingClientRect().top > window.innerHeight * 0.6) drill.current.scrollIntoView({ block: 'start' });
  };
  const pkText = (side: 'a' | 'b'): string => (cmp ? formatPassK(cmp.passK[side]) : '') || '–';
  const shown = cmp ? (flipsOnly ? cmp.tasks.filter((t) => t.flip !== null) : cmp.tasks) : [];
  const selected = cmp?.tasks.find((t) => t.taskId === task) ?? null;
  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col overflow-auto" data-testid="compare-view">
      <div className="border-b border-slate-200 bg-white px-3 py-2">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold text-slate-900">Compare two runs</h2>
          <span className="ml-auto flex gap-1">
            <Button variant="toolbar" onClick={() => store.getState().showCompare(false)} data-testid="compare-back">
              Back to run A
            </Button>
            <Button variant="toolbar" onClick={() => store.getState().closeCompare()} data-testid="compare-close">
              Close B
            </Button>
          </span>
        </div>
        <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs text-slate-700">
          <dt className="font-semibold">A</dt>
          <dd className="truncate" data-testid="compare-label-a" title={safeLabel(aLabel)}>
            {safeLabel(aLabel)} · {named(a)} · {headers.length} {noun}
          </dd>
          <dt className="font-semibold">B</dt>
          <dd className="truncate" data-testid="compare-label-b" title={safeLabel(bLabel)}>
            {safeLabel(bLabel)} · {named(b)} · {b.headers.length} {noun}
          </dd>
        </dl>
        {apart.length > 0 ? (
          <JudgedApartWarning apart={apart} />
        ) : (
          a.domain !== null &&
          a.domain !== b.domain && (
            <p className="mt-1 text-xs text-amber-800" data-testid="compare-other-domain">
              A is {a.domain} and B is {b.domain}: the task ids do not name the same tasks.
            </p>
          )
        )}
        {!cmp && (
          <div className="mt-1">
            <Progress what="A" evaluated={a.evaluated} total={headers.length} problem={runReady(a) ? null : a.dataRequest ? a.dataRequest.reason : null} />
            <Progress what="B" evaluated={b.evaluated} total={b.headers.length} problem={bProblem} />
            {bProblem && bDataBase && (
              <Button variant="toolbar" className="mt-1" onClick={() => store.getState().agreeToFetch(bDataBase)} data-testid="compare-fetch-data">
                Fetch {benchmarkOf(b.benchmark?.kind).name} data from {safeLabel(bDataBase, 80)}
              </Button>
            )}
          </div>
        )}
      </div>
      {cmp && (
        <div className="grid min-h-0 gap-3 p-3 lg:grid-cols-[minmax(20rem,28rem)_minmax(0,1fr)]">
          <div className="min-w-0 space-y-2">
            <p className="text-sm text-slate-800" data-testid="compare-summary">
              {cmp.tasks.length} tasks ·{' '}
              {cmp.flipsCounted ? (
                <>
                  <span className="text-emerald-800">{cmp.gained} now passed by B</span> ·{' '}
                  <span className="text-rose-800">{cmp.lost} no longer passed by B</span>
                </>
              ) : (
                <span className="text-amber-800">flips not counted (judged by different rules)</span>
              )}
              {(cmp.withoutTask.a > 0 || cmp.withoutTask.b > 0) && ` · without a task id (left out): A ${cmp.withoutTask.a}, B ${cmp.withoutTask.b}`}
            </p>
            <div className="rounded-lg border border-slate-200 bg-white p-2">
              <PassKChart recomputed={cmp.passK.b} recorded={cmp.passK.a} complete labels={{ solid: 'B', dashed: 'A' }} testId="compare-pass-k" />
              <p className="mt-1 text-xs text-slate-600 tabular-nums" data-testid="compare-pass-k-text">
                A: {pkText('a')}
                <br />
                B: {pkText('b')}
              </p>
            </div>
            <label className="flex items-center gap-1.5 text-xs text-slate-700">
              <input
                type="checkbox"
                checked={flipsOnly}
                onChange={(e) => store.getState().setCompareFlipsOnly(e.currentTarget.checked)}
                data-testid="compare-flips-only"
              />
              only tasks that flipped ({cmp.gained + cmp.lost})
            </label>
            <table className="w-full border-collapse rounded-lg bg-white text-sm" data-testid="compare-table">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
                  <th className="px-2 py-1 font-medium">task</th>
                  <th className="px-2 py-1 text-right font-medium whitespace-nowrap" title="passes / trials in run A">
                    A<span className="hidden sm:inline"> passes</span>
                  </th>
                  <th className="px-2 py-1 text-right font-medium whitespace-nowrap" title="passes / trials in run B">
                    B<span className="hidden sm:inline"> passes</span>
                  </th>
                  <th className="px-2 py-1 font-medium">flipped</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((t) => (
                  <TaskRow key={t.taskId} t={t} name={tasks.name(t.taskId)} selected={t.taskId === task} onSelect={() => pick(t.taskId)} />
                ))}
              </tbody>
            </table>
            {shown.length === 0 && <p className="text-xs text-slate-600">No task flipped.</p>}
          </div>
          <div className="min-h-[85dvh] min-w-0 scroll-mt-2 lg:min-h-0" data-testid="compare-drill" ref={drill}>
            {selected ? (
              <>
                <h3 className="mb-1 text-sm font-semibold text-slate-900">
                  Task {safeLabel(tasks.name(selected.taskId), 80)}: A {formatCounts(selected.a)}, B {formatCounts(selected.b)}
                  {selected.flip && <span className={selected.flip === 'gained' ? 'text-emerald-800' : 'text-rose-800'}> · {FLIP_TEXT[selected.flip]}</span>}
                </h3>
                <div className="mb-1.5 inline-flex rounded-md border border-slate-300 xl:hidden" role="group" aria-label="Episode shown">
                  {(['a', 'b'] as const).map((x) => (
                    <button
                      key={x}
                      type="button"
                      aria-pressed={narrowSide === x}
                      onClick={() => setNarrowSide(x)}
                      className={`px-3 py-1 text-xs font-medium ${FOCUS_RING_TIGHT} ${narrowSide === x ? 'bg-indigo-600 text-white' : 'bg-white text-slate-700'}`}
                      data-testid={`compare-show-${x}`}
                    >
                      Run {x.toUpperCase()}
                      {sideReward(x === 'a' ? eps.a : eps.b)}
                    </button>
                  ))}
                </div>
                <div className="grid gap-2 xl:grid-cols-2">
                  <EpisodeColumn
                    side="a"
                    narrowHidden={narrowSide !== 'a'}
                    label={aLabel}
                    ep={eps.a}
                    indices={selected.aIndices}
                    headers={headers}
                    summaries={summaries}
                  />
                  <EpisodeColumn
                    side="b"
                    narrowHidden={narrowSide !== 'b'}
                    label={bLabel}
                    ep={eps.b}
                    indices={selected.bIndices}
                    headers={b.headers}
                    summaries={b.summaries}
                  />
                </div>
              </>
            ) : (
              <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">
                Pick a task to see its {noun} in both runs side by side.
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/** In the header while a second run is open: back to the comparison. */
export function CompareToggle({ className, small = false }: { className?: string; small?: boolean }) {
  const store = useAppStore();
  const open = useApp((s) => s.runs.b.id !== null);
  const pending = useApp((s) => s.pending.b !== null);
  const shown = useApp((s) => s.compareShown);
  if (pending) return <span className={`text-xs whitespace-nowrap text-slate-600 ${className ?? ''}`}>Opening B…</span>;
  if (!open || shown) return null;
  return (
    <Button
      variant={small ? 'small' : 'outline'}
      className={className}
      onClick={() => store.getState().showCompare(true)}
      data-testid={small ? 'compare-toggle-narrow' : 'compare-toggle'}
    >
      Compare
    </Button>
  );
}
