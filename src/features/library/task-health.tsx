import { useState } from 'react';
import { formatCounts } from '../../core/contract';
import { gridCells, type CompactGrid, type GridTask, type TaskAcross, type TaskHealth } from '../../core/contract';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { StatsStatus } from './leaderboard';
import { benchDomain, runName } from './run-label';
import { TaskAuditView } from './task-audit';

const SHOWN = 25;
const RUNS_SHOWN = 8;

/** A task as a health section shows it: its numbers, and its runs' cells (from the compact grid). */
type HealthTask = Omit<TaskAcross, 'cells'> & { readonly cells: readonly { readonly run: number; readonly passes: number; readonly trials: number }[] };

const SECTIONS: readonly { readonly key: keyof TaskHealth; readonly title: string; readonly none: string; readonly what: (t: HealthTask) => string }[] = [
  {
    key: 'noPass',
    title: 'No run passes',
    none: 'Every task passes in some run.',
    what: (t) => `0 of ${t.trials} trials pass in ${t.cells.length} run${t.cells.length === 1 ? '' : 's'}`,
  },
  {
    key: 'noopReference',
    title: 'Reference actions leave the DB as it started',
    none: 'No task’s reference actions leave the DB unchanged (τ² runs say so; the τ-bench index has no such finding).',
    what: () => 'an agent that changes nothing passes the DB check',
  },
  {
    key: 'disagree',
    title: 'Recorded and recomputed disagree in several runs',
    none: 'No task’s recorded and recomputed rewards disagree in two runs or more.',
    what: (t) => `in ${t.disagreeRuns} runs`,
  },
  {
    key: 'split',
    title: 'Trials disagree most',
    none: 'No task has trials that both pass and fail in one run.',
    what: (t) => `split ${t.split.toFixed(2)} (1: half the trials pass, in every run)`,
  },
];

function TaskLine({ t, what }: { t: HealthTask; what: string }) {
  const store = useAppStore();
  const runs = useApp((s) => s.library.table?.runs ?? []);
  const [all, setAll] = useState(false);
  const cells = all ? t.cells : t.cells.slice(0, RUNS_SHOWN);
  return (
    <li className="border-b border-slate-100 px-2 py-1.5" data-testid="health-task" data-task={t.task} data-domain={t.domain} data-benchmark={t.benchmark}>
      <p className="text-sm">
        <span className="text-slate-600">{benchDomain(t.benchmark, t.domain)} · task </span>
        <span className="font-mono font-semibold text-slate-900">{safeLabel(t.task, 80)}</span>
        <span className="text-slate-600"> — {what}</span>
      </p>
      <ul className="mt-0.5 flex flex-wrap gap-1">
        {cells.map((c) => (
          <li key={c.run}>
            <Button
              className="text-left"
              onClick={() => store.getState().openLibraryRun(c.run, t.task)}
              title={`Open ${safeLabel(runs[c.run]!.file, 400)} at task ${safeLabel(t.task, 80)}`}
              data-testid="health-open"
              data-run={runs[c.run]!.file}
            >
              {runName(runs[c.run]!)} · {formatCounts({ passes: c.passes, trials: c.trials })}
            </Button>
          </li>
        ))}
        {!all && t.cells.length > RUNS_SHOWN && (
          <li>
            <Button variant="quiet" className="text-xs" onClick={() => setAll(true)}>
              {t.cells.length - RUNS_SHOWN} more runs
            </Button>
          </li>
        )}
      </ul>
    </li>
  );
}

/** Tasks worth a look across the library, each with its runs one click away (the run opens at that task). */
const healthTask = (grids: readonly CompactGrid[], at: GridTask): HealthTask => ({
  ...grids[at.grid]!.tasks[at.task]!,
  cells: gridCells(grids[at.grid]!, at.task),
});

export function TaskHealthView() {
  const stats = useApp((s) => s.libraryStats.stats);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  if (!stats) return <StatsStatus />;
  return (
    <div className="p-2">
      <StatsStatus />
      {SECTIONS.map((s) => {
        const list = stats.health[s.key];
        const shown = (open.has(s.key) ? list : list.slice(0, SHOWN)).map((at) => healthTask(stats.grids, at));
        return (
          <section key={s.key} className="mb-3 rounded-md border border-slate-200 bg-white" data-testid={`health-${s.key}`}>
            <h3 className="border-b border-slate-200 px-2 py-1 text-sm font-semibold text-slate-900">
              {s.title} <span className="font-normal text-slate-600">· {list.length}</span>
            </h3>
            {list.length === 0 ? (
              <p className="px-2 py-1.5 text-sm text-slate-600">{s.none}</p>
            ) : (
              <ul>
                {shown.map((t) => (
                  <TaskLine key={t.key} t={t} what={s.what(t)} />
                ))}
              </ul>
            )}
            {shown.length < list.length && (
              <Button variant="quiet" className="m-1 text-xs" onClick={() => setOpen(new Set([...open, s.key]))}>
                Show all {list.length}
              </Button>
            )}
          </section>
        );
      })}
      <TaskAuditView audit={stats.audit} />
    </div>
  );
}
