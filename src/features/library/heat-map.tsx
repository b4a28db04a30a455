import { useMemo } from 'react';
import { formatCounts } from '../../core/contract';
import { taskGrids, type TaskGrid } from '../../store/library-stats';
import { FOCUS_RING_TIGHT } from '../../ui/focus';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { benchDomain, runName } from './run-label';

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

function Grid({ grid }: { grid: TaskGrid }) {
  const store = useAppStore();
  const runs = useApp((s) => s.library.table?.runs ?? []);
  return (
    <section className="mb-4" aria-label={`Pass rates, ${benchDomain(grid.benchmark, grid.domain)}`} data-testid="heat-map">
      <h3 className="px-2 pt-2 text-sm font-semibold text-slate-900">
        {benchDomain(grid.benchmark, grid.domain)}{' '}
        <span className="font-normal text-slate-600">
          · {grid.tasks.length} tasks × {grid.runs.length} runs
        </span>
      </h3>
      <ol className="flex flex-wrap gap-x-3 px-2 py-1 text-[11px] text-slate-600">
        {grid.runs.map((r, i) => (
          <li key={r}>
            <span className="font-semibold text-slate-800">{i + 1}</span> {runName(runs[r]!)}
          </li>
        ))}
      </ol>
      <div className="overflow-x-auto px-2">
        <table className="border-separate border-spacing-0.5 text-[11px]">
          <thead>
            <tr>
              <th className="sticky left-0 bg-white px-1 text-left font-medium text-slate-600">task</th>
              {grid.runs.map((r, i) => (
                <th key={r} className="w-9 text-center font-medium text-slate-600" title={safeLabel(runs[r]!.file, 400)}>
                  {i + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.tasks.map((t) => {
              const byRun = new Map(t.cells.map((c) => [c.run, c]));
              return (
                <tr key={t.key}>
                  <th scope="row" className="sticky left-0 max-w-[10rem] truncate bg-white px-1 text-left font-mono font-normal text-slate-800">
                    {safeLabel(t.task, 60)}
                  </th>
                  {grid.runs.map((r) => {
                    const c = byRun.get(r);
                    if (!c) return <td key={r} className="h-6 w-9 rounded bg-slate-50" aria-label="not in this run" />;
                    return (
                      <td key={r} className="p-0">
                        <button
                          type="button"
                          className={`h-6 w-9 rounded text-center tabular-nums ${tone(c.passes, c.trials)} hover:ring-2 hover:ring-indigo-500 ${FOCUS_RING_TIGHT}`}
                          aria-label={cellName(c, safeLabel(t.task, 60), runName(runs[r]!))}
                          data-testid="heat-cell"
                          data-task={t.task}
                          data-run={runs[r]!.file}
                          onClick={() => store.getState().openLibraryRun(r, t.task)}
                        >
                          {formatCounts({ passes: c.passes, trials: c.trials })}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Per-task pass rates across runs (recomputed passes of trials), one grid per benchmark and domain; a cell opens that run at that task. */
export function HeatMap() {
  const table = useApp((s) => s.library.table);
  const filters = useApp((s) => s.libraryFilters);
  const grids = useMemo(() => (table ? taskGrids(table, filters) : []), [table, filters]);
  if (grids.length === 0) return <p className="p-4 text-sm text-slate-600">No run matches the filters.</p>;
  return (
    <div>
      <p className="px-2 pt-2 text-xs text-slate-600">
        Each cell: recomputed passes of trials of a task in a run (an episode that cannot be judged counts as failed). Click a cell to open that run at that
        task.
      </p>
      {grids.map((g) => (
        <Grid key={`${g.benchmark}\u0000${g.domain}`} grid={g} />
      ))}
    </div>
  );
}
