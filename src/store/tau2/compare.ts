import { compareRuns, TAU2_TASK_KEY, tau2PassHatK, tau2TaskOrder, type EpisodeHeader, type EpisodeSummary, type RunComparison } from '../../core/contract';
import { benchmarkOf, type BenchmarkKind } from '../../core/contract';
import type { RunBenchmark } from '../../protocol/wire-types';
import type { RunState } from '../run-state';
import { tau2Of } from './opened';

/**
 * τ²'s pass^k of a τ² run (its convention: k up to the fewest trials any task has, and `info.num_trials`;
 * infrastructure errors left out), recorded and recomputed (a row not judged yet is left out; one that
 * cannot be judged counts 0).
 */
export function tau2Pass(headers: readonly EpisodeHeader[], summaries: readonly (EpisodeSummary | undefined)[], numTrials: number | null) {
  const recorded: { task: string; reward: number; termination: string }[] = [];
  const recomputed: { task: string; reward: number; termination: string }[] = [];
  for (const h of headers) {
    const task = h.extra[TAU2_TASK_KEY] ?? String(h.taskId);
    const termination = h.extra.termination_reason ?? '';
    if (h.recordedReward !== null) recorded.push({ task, reward: h.recordedReward, termination });
    const s = summaries[h.index];
    if (s) recomputed.push({ task, reward: s.error !== null || s.reward === null ? 0 : s.reward, termination });
  }
  return { recorded: tau2PassHatK(recorded, numTrials), recomputed: tau2PassHatK(recomputed, numTrials) };
}

/** `tau2Pass` of a run by its benchmark's facts (`info.num_trials`; none for a run of another benchmark). */
export const tau2RunPass = (headers: readonly EpisodeHeader[], summaries: readonly (EpisodeSummary | undefined)[], b: RunBenchmark | null) =>
  tau2Pass(headers, summaries, b?.kind === 'tau2' ? b.numTrials : null);

/** Whether both runs are τ² runs (a τ-bench run is never compared with a τ² one). */
export const bothTau2 = (a: RunState, b: RunState): boolean => tau2Of(a) !== null && tau2Of(b) !== null;

/**
 * Task numbers two runs share, so a task is one row of the comparison: τ-bench's own ids; for two τ²
 * runs the τ² ids themselves when every id of both is a number (airline, retail), else each id's place
 * in the natural order of both runs' ids (telecom's are text; each run's own headers number them apart).
 */
export interface CompareTasks {
  /** Both runs' headers with `taskId` the shared number. */
  readonly a: readonly EpisodeHeader[];
  readonly b: readonly EpisodeHeader[];
  /** A task number as the benchmark names it. */
  name(taskId: number): string;
}

const keyed = new WeakMap<RunState, WeakMap<RunState, CompareTasks>>();

export function compareTasks(a: RunState, b: RunState): CompareTasks {
  if (!bothTau2(a, b)) return { a: a.headers, b: b.headers, name: String };
  const hit = keyed.get(a)?.get(b);
  if (hit) return hit;
  const idOf = (h: EpisodeHeader): string | undefined => h.extra[TAU2_TASK_KEY];
  const ids = tau2TaskOrder([...a.headers, ...b.headers].flatMap((h) => idOf(h) ?? []));
  const numeric = ids.every((id) => /^\d{1,15}$/.test(id));
  const place = new Map(ids.map((id, i) => [id, numeric ? Number(id) : i]));
  const rekey = (hs: readonly EpisodeHeader[]): EpisodeHeader[] => hs.map((h) => ({ ...h, taskId: place.get(idOf(h) ?? '') ?? null }));
  const out: CompareTasks = { a: rekey(a.headers), b: rekey(b.headers), name: numeric ? String : (n) => ids[n] ?? String(n) };
  if (!keyed.has(a)) keyed.set(a, new WeakMap());
  keyed.get(a)!.set(b, out);
  return out;
}

/** Two τ² runs task by task (`compareRuns` on the shared task numbers), with pass^k by τ²'s convention. */
export function tau2Comparison(
  a: RunState,
  b: RunState,
  outcomes: (headers: readonly EpisodeHeader[], summaries: readonly (EpisodeSummary | undefined)[]) => Parameters<typeof compareRuns>[0] | null,
): RunComparison | null {
  const t = compareTasks(a, b);
  const oa = outcomes(t.a, a.summaries);
  const ob = outcomes(t.b, b.summaries);
  if (!oa || !ob) return null;
  const cmp = compareRuns(oa, ob);
  return {
    ...cmp,
    passK: { a: tau2Pass(a.headers, a.summaries, tau2Of(a)!.numTrials).recomputed, b: tau2Pass(b.headers, b.summaries, tau2Of(b)!.numTrials).recomputed },
  };
}

/** Why run B cannot be compared with run A — runs of two benchmarks, either way — in words; null when it can. */
export function compareRefusal(
  a: { readonly benchmark: BenchmarkKind | null; readonly label: string },
  b: { readonly benchmark: BenchmarkKind | null; readonly label: string },
): string | null {
  if (a.benchmark === b.benchmark) return null;
  return `B (${b.label}) is ${benchmarkOf(b.benchmark).aRun} and A (${a.label}) is ${benchmarkOf(a.benchmark).aRun}: their tasks, rewards and pass^k are not the same thing, so they are not compared task by task. Compare two τ-bench runs, or two τ² runs`;
}
