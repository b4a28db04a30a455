import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { formatCounts } from '../../core/contract';
import type { CompactGrid } from '../../core/contract';
import { FOCUS_RING_TIGHT } from '../../ui/focus';
import { safeLabel } from '../../ui/fold';
import { LongId } from '../../ui/long-id';
import { useApp, useAppStore } from '../../ui/store-context';
import { StatsStatus } from './leaderboard';
import { benchDomain, runName } from './run-label';

/** Characters of a task id the row labels show (11 px monospace in 9rem on a phone, 16rem from `sm`), the rest abbreviated in the middle. */
const HEAD_CHARS = { narrow: 20, wide: 36 } as const;

/** A pass rate's colour (recomputed passes of trials): five steps from rose (none) to emerald (all). */
function tone(passes: number, trials: number): string {
  if (trials === 0) return 'bg-slate-100 text-slate-600';
  const p = passes / trials;
  if (p === 0) return 'bg-rose-200 text-rose-950';
  if (p < 0.5) return 'bg-orange-200 text-orange-950';
  if (p < 1 - 1e-9 && p <= 0.75) return 'bg-amber-100 text-amber-950';
  if (p < 1) return 'bg-lime-200 text-lime-950';
  return 'bg-emerald-300 text-emerald-950';
}

/**
 * A cell's accessible name: the count as shown first (a voice-control user says what they see, WCAG 2.5.3), then
 * what it counts and what a click does.
 */
function cellName(c: { readonly passes: number; readonly trials: number }, task: string, run: string): string {
  const what = `task ${task}, ${run}: ${c.passes} of ${c.trials} trials pass; open its episodes`;
  return c.trials === 0 ? what : `${formatCounts(c)}, ${what}`;
}

/** Row and column pitch of a cell (h-6 / w-9 and the table's 2 px spacing), for the window drawn of a big grid. */
const ROW_H = 26;
const COL_W = 38;
/** Grids of up to this many cells are drawn whole; bigger ones a window at a time (10^6 rows stay responsive). */
const WHOLE = 1000;

/** The rows and columns of a grid in view of its scroller, with some around them. */
function useWindow(rows: number, cols: number, box: RefObject<HTMLDivElement | null>) {
  const whole = rows * cols <= WHOLE;
  const [view, setView] = useState({ top: 0, left: 0, height: 520, width: 1000 });
  useEffect(() => {
    const el = box.current;
    if (whole || !el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView({ top: el.scrollTop, left: el.scrollLeft, height: el.clientHeight || 600, width: el.clientWidth || 1200 });
    };
    const onScroll = () => void (frame ||= requestAnimationFrame(read));
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [whole, box]);
  if (whole) return { r0: 0, r1: rows, c0: 0, c1: cols, whole };
  const r0 = Math.max(0, Math.floor(view.top / ROW_H) - 2);
  const c0 = Math.max(0, Math.floor(view.left / COL_W) - 2);
  return { r0, r1: Math.min(rows, r0 + Math.ceil(view.height / ROW_H) + 4), c0, c1: Math.min(cols, c0 + Math.ceil(view.width / COL_W) + 4), whole };
}

/** Whether `el` is on screen or near it (grids off screen draw no cells: a library of many domains stays light). */
function useNearScreen(el: RefObject<HTMLElement | null>, initially: boolean): boolean {
  const [near, setNear] = useState(initially);
  useEffect(() => {
    const target = el.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => setNear(entries.some((e) => e.isIntersecting)), { rootMargin: '300px 0px' });
    io.observe(target);
    return () => io.disconnect();
  }, [el]);
  return near;
}

function Grid({ grid, first }: { grid: CompactGrid; first: boolean }) {
  const store = useAppStore();
  const runs = useApp((s) => s.library.table?.runs ?? []);
  const box = useRef<HTMLDivElement>(null);
  const section = useRef<HTMLElement>(null);
  const near = useNearScreen(section, first);
  const R = grid.runs.length;
  const win = useWindow(grid.tasks.length, R, box);
  // Off screen: no cells, the grid's height kept by one spacer row.
  const w = near ? win : { ...win, r0: 0, r1: 0, c0: 0, c1: 0 };
  const cols = Array.from({ length: w.c1 - w.c0 }, (_, i) => w.c0 + i);
  // Names made once per column and task, not once per cell drawn (a scroll redraws a window of cells).
  const names = useMemo(() => Array.from(grid.runs, (r) => runName(runs[r]!)), [grid, runs]);
  const labels = useMemo(() => grid.tasks.map((t) => safeLabel(t.task, 2000)), [grid]);
  const spacerL = w.c0 * COL_W;
  const spacerR = (R - w.c1) * COL_W;
  return (
    <section ref={section} className="mb-4" aria-label={`Pass rates, ${benchDomain(grid.benchmark, grid.domain)}`} data-testid="heat-map">
      <h3 className="px-2 pt-2 text-sm font-semibold text-slate-900">
        {benchDomain(grid.benchmark, grid.domain)}{' '}
        <span className="font-normal text-slate-600">
          · {grid.tasks.length} tasks × {R} runs{w.whole ? '' : ' (drawn as you scroll)'}
        </span>
      </h3>
      {R <= 40 && (
        <ol className="flex flex-wrap gap-x-3 px-2 py-1 text-[11px] text-slate-600">
          {Array.from(grid.runs, (r, i) => (
            <li key={r}>
              <span className="font-semibold text-slate-800">{i + 1}</span> {runName(runs[r]!)}
            </li>
          ))}
        </ol>
      )}
      <div ref={box} className={`overflow-auto px-2 ${w.whole ? '' : 'max-h-[70vh]'}`} data-testid="heat-scroller">
        <table className="border-separate border-spacing-0.5 text-[11px]">
          <thead>
            <tr>
              <th className="sticky left-0 bg-white px-1 text-left font-medium text-slate-600">task</th>
              {spacerL > 0 && <th aria-hidden="true" style={{ minWidth: spacerL }} />}
              {cols.map((c) => (
                <th key={c} className="w-9 text-center font-medium text-slate-600" title={safeLabel(runs[grid.runs[c]!]!.file, 400)} data-testid="heat-run">
                  {c + 1}
                </th>
              ))}
              {spacerR > 0 && <th aria-hidden="true" style={{ minWidth: spacerR }} />}
            </tr>
          </thead>
          <tbody>
            {w.r0 > 0 && (
              <tr aria-hidden="true">
                <td style={{ height: w.r0 * ROW_H }} />
              </tr>
            )}
            {grid.tasks.slice(w.r0, w.r1).map((t, i) => {
              const ti = w.r0 + i;
              return (
                <tr key={t.key}>
                  <th
                    scope="row"
                    className="sticky left-0 max-w-[9rem] overflow-hidden bg-white px-1 text-left font-mono font-normal whitespace-nowrap text-slate-800 sm:max-w-[16rem]"
                    title={labels[ti]}
                    data-testid="heat-task"
                  >
                    {/* A long id (telecom's) abbreviated in the middle to the column, keeping its end; whole on hover and in the copy. */}
                    <span className="sm:hidden">
                      <LongId id={t.task} max={HEAD_CHARS.narrow} />
                    </span>
                    <span className="hidden sm:inline">
                      <LongId id={t.task} max={HEAD_CHARS.wide} />
                    </span>
                  </th>
                  {spacerL > 0 && <td aria-hidden="true" />}
                  {cols.map((c) => {
                    const trials = grid.trials[ti * R + c]!;
                    const passes = grid.passes[ti * R + c]!;
                    const run = grid.runs[c]!;
                    if (trials < 0) return <td key={c} className="h-6 w-9 rounded bg-slate-50" aria-label="not in this run" />;
                    return (
                      <td key={c} className="p-0">
                        <button
                          type="button"
                          className={`h-6 w-9 rounded text-center tabular-nums ${tone(passes, trials)} hover:ring-2 hover:ring-indigo-500 ${FOCUS_RING_TIGHT}`}
                          aria-label={cellName({ passes, trials }, labels[ti]!, names[c]!)}
                          data-testid="heat-cell"
                          data-task={t.task}
                          data-run={runs[run]!.file}
                          onClick={() => store.getState().openLibraryRun(run, t.task)}
                        >
                          {formatCounts({ passes, trials })}
                        </button>
                      </td>
                    );
                  })}
                  {spacerR > 0 && <td aria-hidden="true" />}
                </tr>
              );
            })}
            {w.r1 < grid.tasks.length && (
              <tr aria-hidden="true">
                <td style={{ height: (grid.tasks.length - w.r1) * ROW_H }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * Per-task pass rates across runs (recomputed passes of trials), one grid per benchmark and domain; a cell opens that
 * run at that task. Computed in the worker; a big grid is drawn a window at a time.
 */
export function HeatMap() {
  const stats = useApp((s) => s.libraryStats.stats);
  if (!stats) return <StatsStatus />;
  if (stats.grids.length === 0) return <p className="p-4 text-sm text-slate-600">No run matches the filters.</p>;
  return (
    <div>
      <StatsStatus />
      <p className="px-2 pt-2 text-xs text-slate-600">
        Each cell: recomputed passes of trials of a task in a run (an episode that cannot be judged counts as failed). Click a cell to open that run at that
        task.
      </p>
      {stats.grids.map((g, i) => (
        <Grid key={`${g.benchmark}\u0000${g.domain}`} grid={g} first={i === 0} />
      ))}
    </div>
  );
}
