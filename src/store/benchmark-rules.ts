import { compareRuns, passHatK, type BenchmarkKind, type CompareOutcome, type EpisodeHeader, type EpisodeSummary, type PassK } from '../core/contract';
import type { RunComparison, RunJudging, TrialOutcome } from '../core/contract';
import type { RunState } from './run-state';
import type { RunBenchmark } from '../protocol/wire-types';
import { tau2Comparison, tau2RunPass } from './tau2/compare';
import { tau2RunNote } from './tau2/opened';

/**
 * What the store computes differently for each benchmark, as values keyed by the run's kind: the overview and the
 * compare view read `rulesOf(run)`, never test which benchmark a run is (ARCHITECTURE.md, "The column").
 */
export interface BenchmarkRules {
  /** pass^k by the benchmark's own convention, recorded and recomputed (a row not judged yet is left out). */
  passK(
    headers: readonly EpisodeHeader[],
    summaries: readonly (EpisodeSummary | undefined)[],
    b: RunBenchmark | null,
  ): { readonly recorded: readonly PassK[]; readonly recomputed: readonly PassK[] };
  /** A, B compared task by task once both are judged (two runs of this benchmark). */
  compare(a: RunState, b: RunState): RunComparison | null;
  /** What the overview says under the run's count (τ²: its domain, solo), if anything. */
  note(b: RunBenchmark | null): string | undefined;
}

/** Outcomes of a run for `compareRuns`; null while any episode is not evaluated yet. */
export function compareOutcomes(headers: readonly EpisodeHeader[], summaries: readonly (EpisodeSummary | undefined)[]): CompareOutcome[] | null {
  const out: CompareOutcome[] = [];
  for (const h of headers) {
    const s = summaries[h.index];
    if (!s) return null;
    out.push({ index: h.index, taskId: h.taskId, trial: h.trial, reward: s.error === null ? s.reward : null });
  }
  return out;
}

/** How A and B were judged, once both are detected. */
export function judgingOf(a: RunState, b: RunState): { a: RunJudging; b: RunJudging } | undefined {
  return a.detection && b.detection ? { a: a.detection, b: b.detection } : undefined;
}

/** τ-bench's pass^k: a crashed or unevaluable episode is a failed trial. */
function tauBenchPass(headers: readonly EpisodeHeader[], summaries: readonly (EpisodeSummary | undefined)[]) {
  const recorded: TrialOutcome[] = [];
  const recomputed: TrialOutcome[] = [];
  for (const h of headers) {
    if (h.taskId === null || h.trial === null) continue;
    if (h.recordedReward !== null) recorded.push({ taskId: h.taskId, trial: h.trial, reward: h.recordedReward });
    const s = summaries[h.index];
    if (s) recomputed.push({ taskId: h.taskId, trial: h.trial, reward: s.error !== null || s.reward === null ? 0 : s.reward });
  }
  return { recorded: passHatK(recorded), recomputed: passHatK(recomputed) };
}

export const BENCHMARK_RULES: Readonly<Record<BenchmarkKind, BenchmarkRules>> = {
  'tau-bench': {
    passK: tauBenchPass,
    compare: (a, b) => {
      const oa = compareOutcomes(a.headers, a.summaries);
      const ob = compareOutcomes(b.headers, b.summaries);
      return oa && ob ? compareRuns(oa, ob, judgingOf(a, b)) : null;
    },
    note: () => undefined,
  },
  tau2: {
    passK: tau2RunPass,
    compare: (a, b) => tau2Comparison(a, b, compareOutcomes),
    note: tau2RunNote,
  },
};

/** The rules of a run's benchmark (τ-bench's while no run is open). */
export const rulesOf = (b: RunBenchmark | null): BenchmarkRules => BENCHMARK_RULES[b?.kind ?? 'tau-bench'];
