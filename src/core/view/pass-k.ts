/** One episode's outcome as pass^k needs it. */
export interface TrialOutcome {
  readonly taskId: number;
  readonly trial: number;
  readonly reward: number;
}

/** τ-bench's success test: the reward is within 1e-6 of 1. */
export const isSuccess = (r: number): boolean => Math.abs(r - 1) <= 1e-6;

/** C(n, k) as a float (0 outside 0 ≤ k ≤ n), as pass^k computes it. */
export function comb(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

export interface PassK {
  readonly k: number;
  readonly value: number;
}

/**
 * τ-bench's pass^k: n is the number of distinct trials in the run; for each task with c
 * successes, C(c, k) / C(n, k); averaged over tasks.
 */
export function passHatK(outcomes: readonly TrialOutcome[]): PassK[] {
  if (outcomes.length === 0) return [];
  const n = new Set(outcomes.map((o) => o.trial)).size;
  const successes = new Map<number, number>();
  for (const o of outcomes) successes.set(o.taskId, (successes.get(o.taskId) ?? 0) + (isSuccess(o.reward) ? 1 : 0));
  const out: PassK[] = [];
  for (let k = 1; k <= n; k++) {
    let sum = 0;
    for (const c of successes.values()) sum += comb(c, k) / comb(n, k);
    out.push({ k, value: sum / successes.size });
  }
  return out;
}
