/**
 * The library's three views as the worker computes them for the page (issue #35 class 8: no main-thread task over
 * 200 ms at 10^6 rows): the leaderboard's first rows of each benchmark and domain (intervals for those only; more on
 * request), tasks × runs as compact typed arrays (a heat map of 10^6 rows is drawn a window at a time), task health
 * as places in those grids, and the task audit. Structured-cloneable, small whatever the table's size.
 */
import { leaderboard, rankGroup, taskGrids, taskHealth, type LeaderRow, type LibraryFilters, type TaskAcross, type TaskHealth } from './library-stats';
import type { LibraryTable } from './table';
import { auditTasks, type AuditFinding } from './task-audit';

/** One benchmark and domain of the leaderboard: how many runs it has, how many are ranked, and its first rows. */
export interface BoardGroup {
  readonly key: string;
  readonly total: number;
  readonly ranked: number;
  readonly rows: readonly LeaderRow[];
}

/** One heat map: its runs (best first) and tasks, passes and trials per task (row) and run (column); -1: not in that run. */
export interface CompactGrid {
  readonly benchmark: string;
  readonly domain: string;
  readonly runs: Int32Array;
  readonly tasks: readonly Omit<TaskAcross, 'cells'>[];
  readonly passes: Int32Array;
  readonly trials: Int32Array;
}

/** A task of a grid: `grid` indexes `grids`, `task` its `tasks`. */
export interface GridTask {
  readonly grid: number;
  readonly task: number;
}

export interface LibraryStats {
  /** The filters these are for (the page keeps the newest request's). */
  readonly filters: LibraryFilters;
  readonly board: readonly BoardGroup[];
  /** Runs on the board (all groups). */
  readonly runs: number;
  /** The largest k of any run (columns). */
  readonly maxK: number;
  /** Some τ² run of the index has no num_trials column. */
  readonly oldIndex: boolean;
  readonly grids: readonly CompactGrid[];
  readonly health: Readonly<Record<keyof TaskHealth, readonly GridTask[]>>;
  readonly audit: readonly AuditFinding[];
}

/** The board's rows sent at first per group; the page asks for more. */
export const BOARD_ROWS = 20;

export function libraryStats(t: LibraryTable, f: LibraryFilters, rowsPerGroup: number = BOARD_ROWS): LibraryStats {
  const all = leaderboard(t, f, { intervalsPerGroup: rowsPerGroup });
  const groups = new Map<string, LeaderRow[]>();
  for (const r of all) {
    const g = groups.get(rankGroup(r.info));
    if (g) g.push(r);
    else groups.set(rankGroup(r.info), [r]);
  }
  const board = [...groups].map(([key, rows]) => ({
    key,
    total: rows.length,
    ranked: rows.filter((r) => r.rank !== null).length,
    rows: rows.slice(0, rowsPerGroup),
  }));
  const full = taskGrids(t, f);
  const where = new Map<string, GridTask>();
  const grids = full.map((g, gi): CompactGrid => {
    const col = new Map(g.runs.map((r, i) => [r, i]));
    const passes = new Int32Array(g.tasks.length * g.runs.length).fill(-1);
    const trials = new Int32Array(g.tasks.length * g.runs.length).fill(-1);
    g.tasks.forEach((task, ti) => {
      where.set(task.key, { grid: gi, task: ti });
      for (const c of task.cells) {
        passes[ti * g.runs.length + col.get(c.run)!] = c.passes;
        trials[ti * g.runs.length + col.get(c.run)!] = c.trials;
      }
    });
    return {
      benchmark: g.benchmark,
      domain: g.domain,
      runs: Int32Array.from(g.runs),
      tasks: g.tasks.map(({ cells: _, ...rest }) => rest),
      passes,
      trials,
    };
  });
  const h = taskHealth(full);
  const places = (list: readonly TaskAcross[]): GridTask[] => list.map((x) => where.get(x.key)!);
  return {
    filters: f,
    board,
    runs: all.length,
    maxK: Math.max(1, ...all.map((r) => r.recomputed.length)),
    oldIndex: all.some((r) => r.trialsNote !== null),
    grids,
    health: { noPass: places(h.noPass), noopReference: places(h.noopReference), disagree: places(h.disagree), split: places(h.split) },
    // Over every run of the library (a task's audit is about the task); the page narrows it by benchmark and domain.
    audit: auditTasks(t),
  };
}

/** The typed arrays of stats, to transfer rather than copy. */
export const statsBuffers = (s: LibraryStats): ArrayBuffer[] => s.grids.flatMap((g) => [g.runs, g.passes, g.trials].map((a) => a.buffer as ArrayBuffer));

/** A task's cells in a compact grid: the runs that hold it, with its passes and trials there. */
export function gridCells(g: CompactGrid, task: number): { run: number; passes: number; trials: number }[] {
  const out: { run: number; passes: number; trials: number }[] = [];
  const n = g.runs.length;
  for (let i = 0; i < n; i++) if (g.trials[task * n + i]! >= 0) out.push({ run: g.runs[i]!, passes: g.passes[task * n + i]!, trials: g.trials[task * n + i]! });
  return out;
}
