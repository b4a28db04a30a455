import { isSuccess, passHatK, type PassK, type TrialOutcome } from '../pass-k';
import { tau2PassHatK, tau2TaskOrder } from '../tau2/summary';
import { LIBRARY_FLAG, SPEND_KEYS, type LibraryRun, type LibraryTable, type SpendKey } from './table';
import { noiseFloor, passKIntervals, unrankedReason, type NoiseFloor, type PassKInterval, type TaskTally } from './pass-k-stats';

/** What the library shows: runs whose model, domain, benchmark and data version match (null: any). */
export interface LibraryFilters {
  readonly model: string | null;
  readonly domain: string | null;
  readonly benchmark: string | null;
  readonly dataVersion: string | null;
}
export const NO_LIBRARY_FILTERS: LibraryFilters = { model: null, domain: null, benchmark: null, dataVersion: null };
export const LIBRARY_FILTER_KEYS: readonly (keyof LibraryFilters)[] = ['benchmark', 'domain', 'model', 'dataVersion'];

/** A run's value for a filter (`(none)` when the index has none: τ-bench files record no model). */
export const NONE = '(none)';
export const runFacet = (r: LibraryRun, key: keyof LibraryFilters): string => r[key] ?? NONE;

export const runMatches = (r: LibraryRun, f: LibraryFilters): boolean => LIBRARY_FILTER_KEYS.every((k) => f[k] === null || runFacet(r, k) === f[k]);

/** The values each filter can take over the whole library, with how many runs have each. */
export function facets(t: LibraryTable): Record<keyof LibraryFilters, readonly { readonly value: string; readonly runs: number }[]> {
  const out = Object.fromEntries(LIBRARY_FILTER_KEYS.map((k) => [k, new Map<string, number>()])) as Record<keyof LibraryFilters, Map<string, number>>;
  for (const r of t.runs) for (const k of LIBRARY_FILTER_KEYS) out[k].set(runFacet(r, k), (out[k].get(runFacet(r, k)) ?? 0) + 1);
  const sorted = (m: Map<string, number>) =>
    [...m].map(([value, runs]) => ({ value, runs })).sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return { benchmark: sorted(out.benchmark), domain: sorted(out.domain), model: sorted(out.model), dataVersion: sorted(out.dataVersion) };
}

/** A row's recomputed reward as the run's own overview counts it: an episode that cannot be judged is a failed trial (0). */
const recomputedOf = (t: LibraryTable, i: number): number => ((t.flags[i]! & LIBRARY_FLAG.error) !== 0 || Number.isNaN(t.reward[i]!) ? 0 : t.reward[i]!);

/** The rows of each run, in file order. */
function rowsByRun(t: LibraryTable): number[][] {
  const out: number[][] = t.runs.map(() => []);
  for (let i = 0; i < t.run.length; i++) out[t.run[i]!]!.push(i);
  return out;
}

/** One run of the leaderboard: pass^k recorded and recomputed by its benchmark's own rule, with what they are over. */
export interface LeaderRow {
  readonly run: number;
  readonly info: LibraryRun;
  readonly episodes: number;
  /** Tasks pass^k averages over (τ²: infrastructure errors left out). */
  readonly tasks: number;
  /** τ-bench: the distinct trials of the run (pass^k's n); τ²: the largest k (`info.num_trials`, or the fewest trials any task has if fewer). */
  readonly trials: number;
  /** Why this run's pass^k may go further than its own overview's (a τ² run of an index without `num_trials`), or null. */
  readonly trialsNote: string | null;
  /** Episodes that pass, recomputed (and recorded), of `episodes`. */
  readonly passes: number;
  readonly recordedPasses: number;
  readonly recordedEpisodes: number;
  readonly recomputed: readonly PassK[];
  readonly recorded: readonly PassK[];
  readonly disagree: number;
  readonly errors: number;
  /** Recomputed pass^1…pass^k with their 95 % intervals and the tasks they are over (`INTERVAL_METHOD`). */
  readonly intervals: readonly PassKInterval[];
  /** Trial-to-trial spread of recomputed pass^1, for runs with two trials or more. */
  readonly noise: NoiseFloor | null;
  /** Rank within its benchmark and domain (1: best recomputed pass^1), null when not ranked. */
  readonly rank: number | null;
  /** Why the run is listed but not ranked (too few tasks or trials), or null. */
  readonly unranked: string | null;
  /** What the run records it spent, per column: the sum over the rows that record it and how many do (0: not recorded). */
  readonly spend: Readonly<Record<SpendKey, { readonly sum: number; readonly rows: number }>>;
}

/**
 * A run's cost of one simulation on average: agent cost plus user cost, over the rows recording the agent's (the
 * user's added where recorded). Null when no agent cost is recorded (τ-bench files record the user's alone): a
 * partial cost is not a cost.
 */
export function costPerEpisode(r: Pick<LeaderRow, 'spend'>): number | null {
  const a = r.spend.agent_cost;
  return a.rows === 0 ? null : (a.sum + r.spend.user_cost.sum) / a.rows;
}

/** pass^1 per dollar: recomputed pass^1 over the cost of one simulation (null when no cost is recorded or it is 0). */
export function passPerDollar(r: LeaderRow): number | null {
  const cost = costPerEpisode(r);
  const p1 = r.recomputed[0]?.value;
  return cost === null || cost <= 0 || p1 === undefined ? null : p1 / cost;
}

/** What a τ² run of an index without the `num_trials` column loses, in words. */
export const NO_NUM_TRIALS =
  'this runs.parquet has no num_trials column (written before tau-inspect index recorded τ²’s info.num_trials): k goes up to the fewest trials any task has, where τ² and the run’s own overview also stop at info.num_trials; index the runs again to have it';

/**
 * A run's pass^k exactly as its own overview computes it (src/features/overview/run-summary.tsx): τ-bench's
 * `passHatK` over episodes with a task and a trial (n = the run's distinct trials), τ²'s `tau2PassHatK` over
 * simulations by task id (infrastructure errors left out; each task over its own trials; k up to the run's
 * `info.num_trials` or the fewest trials any task has, whichever is less — the fewest alone for an index
 * without `num_trials`, with `trialsNote` saying so).
 */
interface RunPassK {
  recorded: PassK[];
  recomputed: PassK[];
  tasks: number;
  trials: number;
  trialsNote: string | null;
  /** Recomputed, per task: trials and passes (τ²: infrastructure errors left out). */
  tallies: Map<string, TaskTally>;
  /** τ-bench: pass^k's n for every task (the run's distinct trials); τ²: undefined (each task its own). */
  commonN: number | undefined;
  /** Recomputed outcomes with a trial, for the noise floor. */
  outcomes: { trial: number; pass: boolean }[];
}

/** Adds a trial to a task's tally. */
function tally(m: Map<string, TaskTally>, task: string, pass: boolean): void {
  const t = m.get(task) ?? { n: 0, c: 0 };
  m.set(task, { n: t.n + 1, c: t.c + (pass ? 1 : 0) });
}

function runPassK(t: LibraryTable, rows: readonly number[], info: LibraryRun): RunPassK {
  if (info.benchmark === 'tau2') {
    const numTrials = info.numTrials ?? null;
    const recorded: { task: string; reward: number; termination: string }[] = [];
    const recomputed: { task: string; reward: number; termination: string }[] = [];
    const tallies = new Map<string, TaskTally>();
    const outcomes: { trial: number; pass: boolean }[] = [];
    for (const i of rows) {
      const task = t.task[i]! < 0 ? 'None' : t.tasks[t.task[i]!]!;
      const termination = (t.flags[i]! & LIBRARY_FLAG.infrastructure) !== 0 ? 'infrastructure_error' : '';
      if (!Number.isNaN(t.recorded[i]!)) recorded.push({ task, reward: t.recorded[i]!, termination });
      const reward = recomputedOf(t, i);
      recomputed.push({ task, reward, termination });
      if (termination === '') {
        tally(tallies, task, isSuccess(reward));
        if (t.trial[i]! >= 0) outcomes.push({ trial: t.trial[i]!, pass: isSuccess(reward) });
      }
    }
    let fewest = Infinity;
    for (const x of tallies.values()) fewest = Math.min(fewest, x.n);
    return {
      recorded: tau2PassHatK(recorded, numTrials),
      recomputed: tau2PassHatK(recomputed, numTrials),
      tasks: tallies.size,
      trials: Math.min(numTrials ?? Infinity, fewest),
      trialsNote: info.numTrials === undefined ? NO_NUM_TRIALS : null,
      tallies,
      commonN: undefined,
      outcomes,
    };
  }
  const recorded: TrialOutcome[] = [];
  const recomputed: TrialOutcome[] = [];
  for (const i of rows) {
    if (t.task[i]! < 0 || t.trial[i]! < 0) continue;
    const taskId = Number(t.tasks[t.task[i]!]);
    if (!Number.isFinite(taskId)) continue;
    if (!Number.isNaN(t.recorded[i]!)) recorded.push({ taskId, trial: t.trial[i]!, reward: t.recorded[i]! });
    recomputed.push({ taskId, trial: t.trial[i]!, reward: recomputedOf(t, i) });
  }
  const tallies = new Map<string, TaskTally>();
  for (const o of recomputed) tally(tallies, String(o.taskId), isSuccess(o.reward));
  const trials = new Set(recomputed.map((o) => o.trial)).size;
  return {
    recorded: passHatK(recorded),
    recomputed: passHatK(recomputed),
    tasks: tallies.size,
    trials,
    trialsNote: null,
    tallies,
    commonN: trials,
    outcomes: recomputed.map((o) => ({ trial: o.trial, pass: isSuccess(o.reward) })),
  };
}

/** What a leaderboard row is ranked within: its benchmark and domain (never mixed). */
export const rankGroup = (info: LibraryRun): string => `${info.benchmark}\u0000${info.domain ?? NONE}`;

/** A run's per-task tallies of recomputed trials and its noise floor, for a paired comparison. */
export function runTallies(t: LibraryTable, run: number): { tallies: Map<string, TaskTally>; noise: NoiseFloor | null } | null {
  const info = t.runs[run];
  if (info === undefined) return null;
  const rows: number[] = [];
  for (let i = 0; i < t.run.length; i++) if (t.run[i] === run) rows.push(i);
  const pk = runPassK(t, rows, info);
  return { tallies: pk.tallies, noise: noiseFloor(pk.outcomes) };
}

/**
 * The leaderboard: one row per run that matches the filters, grouped by benchmark and domain (in that order), in
 * each group the ranked runs by recomputed pass^1, best first, then those listed but not ranked (too few tasks or
 * trials). Each row carries its pass^k with 95 % intervals and, with two trials or more, its noise floor.
 */
export function leaderboard(t: LibraryTable, f: LibraryFilters, opts: { readonly intervalsPerGroup?: number } = {}): LeaderRow[] {
  const byRun = rowsByRun(t);
  const later = new Map<number, { tallies: Map<string, TaskTally>; commonN: number | undefined; k: number }>();
  const out: (Omit<LeaderRow, 'rank'> & { rank: number | null })[] = [];
  t.runs.forEach((info, run) => {
    if (!runMatches(info, f)) return;
    const rows = byRun[run]!;
    const { tallies, commonN, outcomes, ...pk } = runPassK(t, rows, info);
    let passes = 0;
    let recordedPasses = 0;
    let recordedEpisodes = 0;
    let disagree = 0;
    let errors = 0;
    for (const i of rows) {
      if (isSuccess(recomputedOf(t, i))) passes++;
      if (!Number.isNaN(t.recorded[i]!)) {
        recordedEpisodes++;
        if (isSuccess(t.recorded[i]!)) recordedPasses++;
      }
      if ((t.flags[i]! & LIBRARY_FLAG.disagree) !== 0) disagree++;
      if ((t.flags[i]! & LIBRARY_FLAG.error) !== 0) errors++;
    }
    const spend = Object.fromEntries(
      SPEND_KEYS.map((k) => {
        const col = t.spend?.[k];
        let sum = 0;
        let n = 0;
        if (col) for (const i of rows) if (!Number.isNaN(col[i]!)) [sum, n] = [sum + col[i]!, n + 1];
        return [k, { sum, rows: n }];
      }),
    ) as Record<SpendKey, { sum: number; rows: number }>;
    later.set(run, { tallies, commonN, k: pk.recomputed.length });
    const unranked = unrankedReason(pk.tasks, pk.tasks === 0 ? 0 : pk.trials);
    out.push({
      run,
      info,
      episodes: rows.length,
      ...pk,
      passes,
      recordedPasses,
      recordedEpisodes,
      disagree,
      errors,
      intervals: [],
      noise: noiseFloor(outcomes),
      rank: null,
      unranked,
      spend,
    });
  });
  const first = (r: LeaderRow): number => r.recomputed[0]?.value ?? -1;
  out.sort(
    (a, b) =>
      (rankGroup(a.info) < rankGroup(b.info) ? -1 : rankGroup(a.info) > rankGroup(b.info) ? 1 : 0) ||
      Number(a.unranked !== null) - Number(b.unranked !== null) ||
      first(b) - first(a) ||
      (a.info.file < b.info.file ? -1 : 1),
  );
  let group = '';
  let rank = 0;
  let inGroup = 0;
  // Intervals (the bootstrap: most of the time here) for the first rows of each group only, when told.
  const perGroup = opts.intervalsPerGroup ?? Infinity;
  for (const r of out) {
    if (rankGroup(r.info) !== group) [group, rank, inGroup] = [rankGroup(r.info), 0, 0];
    if (r.unranked === null) r.rank = ++rank;
    if (inGroup++ < perGroup) {
      const l = later.get(r.run)!;
      (r as { intervals: readonly PassKInterval[] }).intervals = passKIntervals([...l.tallies.values()], l.k, l.commonN);
    }
  }
  return out;
}

/** One run's trials of one task. */
export interface TaskCell {
  readonly run: number;
  readonly passes: number;
  readonly trials: number;
  readonly disagree: number;
}

/** A task of one benchmark and domain, across the runs that have it. */
export interface TaskAcross {
  readonly key: string;
  readonly benchmark: string;
  readonly domain: string;
  readonly task: string;
  readonly cells: readonly TaskCell[];
  readonly passes: number;
  readonly trials: number;
  /** Some run records the `no-op-reference` finding for it. */
  readonly noopReference: boolean;
  /** Runs in which a recorded reward and the recomputed one disagree for it. */
  readonly disagreeRuns: number;
  /** How much its trials disagree within runs: the mean over runs with two trials or more of 4·p·(1 − p) (1: half pass). */
  readonly split: number;
}

/** A benchmark and domain with its runs (best first) and tasks (in natural order): one heat map. */
export interface TaskGrid {
  readonly benchmark: string;
  readonly domain: string;
  readonly runs: readonly number[];
  readonly tasks: readonly TaskAcross[];
}

/** Tasks × runs per benchmark and domain, over the runs that match the filters. */
export function taskGrids(t: LibraryTable, f: LibraryFilters): TaskGrid[] {
  const order = new Map(leaderboard(t, f, { intervalsPerGroup: 0 }).map((r, i) => [r.run, i]));
  const groups = new Map<string, { benchmark: string; domain: string; runs: Set<number>; tasks: Map<string, Map<number, TaskCell & { noop: boolean }>> }>();
  for (let i = 0; i < t.run.length; i++) {
    const run = t.run[i]!;
    if (!order.has(run) || t.task[i]! < 0) continue;
    const info = t.runs[run]!;
    const domain = info.domain ?? NONE;
    const gk = `${info.benchmark}\u0000${domain}`;
    let g = groups.get(gk);
    if (!g) groups.set(gk, (g = { benchmark: info.benchmark, domain, runs: new Set(), tasks: new Map() }));
    g.runs.add(run);
    const task = t.tasks[t.task[i]!]!;
    let cells = g.tasks.get(task);
    if (!cells) g.tasks.set(task, (cells = new Map()));
    const c = cells.get(run) ?? { run, passes: 0, trials: 0, disagree: 0, noop: false };
    cells.set(run, {
      run,
      passes: c.passes + (isSuccess(recomputedOf(t, i)) ? 1 : 0),
      trials: c.trials + 1,
      disagree: c.disagree + ((t.flags[i]! & LIBRARY_FLAG.disagree) !== 0 ? 1 : 0),
      noop: c.noop || (t.flags[i]! & LIBRARY_FLAG.noopReference) !== 0,
    });
  }
  const out: TaskGrid[] = [];
  for (const g of groups.values()) {
    const runs = [...g.runs].sort((a, b) => order.get(a)! - order.get(b)!);
    const tasks = tau2TaskOrder(g.tasks.keys()).map((task): TaskAcross => {
      const byRun = g.tasks.get(task)!;
      const cells = runs.flatMap((r) => (byRun.has(r) ? [byRun.get(r)!] : []));
      const splits = cells.filter((c) => c.trials >= 2).map((c) => 4 * (c.passes / c.trials) * (1 - c.passes / c.trials));
      return {
        key: `${g.benchmark}\u0000${g.domain}\u0000${task}`,
        benchmark: g.benchmark,
        domain: g.domain,
        task,
        cells: cells.map(({ noop: _, ...c }) => c),
        passes: cells.reduce((s, c) => s + c.passes, 0),
        trials: cells.reduce((s, c) => s + c.trials, 0),
        noopReference: cells.some((c) => c.noop),
        disagreeRuns: cells.filter((c) => c.disagree > 0).length,
        split: splits.length === 0 ? 0 : splits.reduce((s, x) => s + x, 0) / splits.length,
      };
    });
    out.push({ benchmark: g.benchmark, domain: g.domain, runs, tasks });
  }
  return out.sort((a, b) => (a.benchmark + a.domain < b.benchmark + b.domain ? -1 : 1));
}

/** Task health: the tasks worth a look, each list in its own order. */
export interface TaskHealth {
  /** Tasks no run passes (recomputed), with at least one judged trial. */
  readonly noPass: readonly TaskAcross[];
  /** Tasks whose reference actions leave the DB as it started (τ²'s `no-op-reference`; the τ-bench index has no such column). */
  readonly noopReference: readonly TaskAcross[];
  /** Tasks whose recorded and recomputed rewards disagree in two runs or more, most runs first. */
  readonly disagree: readonly TaskAcross[];
  /** Tasks whose trials disagree most within runs (the top `SPLIT_SHOWN`), most first. */
  readonly split: readonly TaskAcross[];
}
export const SPLIT_SHOWN = 20;

export function taskHealth(grids: readonly TaskGrid[]): TaskHealth {
  const all = grids.flatMap((g) => g.tasks);
  return {
    noPass: all.filter((x) => x.trials > 0 && x.passes === 0),
    noopReference: all.filter((x) => x.noopReference),
    disagree: all.filter((x) => x.disagreeRuns >= 2).sort((a, b) => b.disagreeRuns - a.disagreeRuns),
    split: all
      .filter((x) => x.split > 0)
      .sort((a, b) => b.split - a.split)
      .slice(0, SPLIT_SHOWN),
  };
}

/**
 * The overview's task filter for a task of a run: τ-bench's id as a number; a τ² id the same way when every id of
 * the run is a decimal number, else its position in natural order (as `tau2Headers` numbers the run's rows).
 */
export function overviewTaskId(t: LibraryTable, run: number, task: string): number | null {
  if (t.runs[run]?.benchmark !== 'tau2') return /^-?\d+$/.test(task) ? Number(task) : null;
  const ids: string[] = [];
  for (let i = 0; i < t.run.length; i++) if (t.run[i] === run && t.task[i]! >= 0) ids.push(t.tasks[t.task[i]!]!);
  const order = tau2TaskOrder(ids);
  if (order.every((id) => /^\d{1,15}$/.test(id))) return Number(task);
  const at = order.indexOf(task);
  return at < 0 ? null : at;
}
