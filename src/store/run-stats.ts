import type { EpisodeHeader, EpisodeSummary } from '../core/contract';
import { isSuccess } from '../core/contract';

/**
 * One average with its denominator stated: `value = sum / count`. Episodes that crashed or cannot
 * be evaluated count as reward 0, as τ-bench's own headline number does (its results file records
 * 0 for a crashed episode), so recorded and recomputed averages share one denominator.
 */
export interface Average {
  readonly value: number | null;
  readonly sum: number;
  readonly count: number;
  /** Of `count`: episodes that count 0 because they crashed or cannot be evaluated. */
  readonly zeroed: number;
}

export interface RunAverages {
  readonly episodes: number;
  /** Recorded rewards; episodes without one (a file that lacks it) are not counted and are named in `missing`. */
  readonly recorded: Average & { readonly missing: number };
  /** Recomputed rewards of the episodes evaluated so far (all of them once `complete`). */
  readonly recomputed: Average;
  /** The recorded average over the same episodes as `recomputed` (equal to `recorded` once complete). */
  readonly recordedSameEpisodes: Average;
  readonly complete: boolean;
  readonly disagree: number;
  readonly errors: number;
}

const avg = (sum: number, count: number, zeroed: number): Average => ({ value: count > 0 ? sum / count : null, sum, count, zeroed });

/** The run's averages, each with its denominator; computed here and nowhere else. */
export function runAverages(headers: readonly EpisodeHeader[], summaries: readonly (EpisodeSummary | undefined)[]): RunAverages {
  let recSum = 0;
  let recCount = 0;
  let recZeroed = 0;
  let missing = 0;
  let newSum = 0;
  let newCount = 0;
  let newZeroed = 0;
  let sameSum = 0;
  let sameCount = 0;
  let sameZeroed = 0;
  let disagree = 0;
  let errors = 0;
  for (const h of headers) {
    const crashed = h.problem !== null;
    if (h.recordedReward === null) missing++;
    else {
      recSum += h.recordedReward;
      recCount++;
      if (crashed) recZeroed++;
    }
    const s = summaries[h.index];
    if (!s) continue;
    if (s.agrees === false) disagree++;
    newCount++;
    if (s.error !== null || s.reward === null) {
      errors++;
      newZeroed++;
    } else newSum += s.reward;
    if (h.recordedReward !== null) {
      sameSum += h.recordedReward;
      sameCount++;
      if (crashed) sameZeroed++;
    }
  }
  return {
    episodes: headers.length,
    recorded: { ...avg(recSum, recCount, recZeroed), missing },
    recomputed: avg(newSum, newCount, newZeroed),
    recordedSameEpisodes: avg(sameSum, sameCount, sameZeroed),
    complete: headers.length > 0 && newCount === headers.length,
    disagree,
    errors,
  };
}

const num = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** "0.687 = 79/115" */
export const formatAverage = (a: Average): string => (a.value === null ? '—' : `${a.value.toFixed(3)} = ${num(a.sum)}/${a.count}`);

/** Successes per task (recomputed once evaluated, recorded until then), for per-task pass rates. */
export function taskPassRates(
  headers: readonly EpisodeHeader[],
  summaries: readonly (EpisodeSummary | undefined)[],
): Map<number, { readonly passed: number; readonly trials: number }> {
  const out = new Map<number, { passed: number; trials: number }>();
  for (const h of headers) {
    if (h.taskId === null) continue;
    const s = summaries[h.index];
    const reward = s ? (s.error !== null ? 0 : s.reward) : h.recordedReward;
    const t = out.get(h.taskId) ?? { passed: 0, trials: 0 };
    t.trials++;
    if (reward !== null && isSuccess(reward)) t.passed++;
    out.set(h.taskId, t);
  }
  return out;
}
