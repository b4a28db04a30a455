import { dumpsFloat } from '../py/json-dumps';
import type { RewardRule } from '../model/data/versions';

/**
 * A reward as τ-bench prints it: a Python float (`1.0`, `0.0`, `0.93`); `—` when there is none.
 * One formatter for the table, the verdict, the CLI and the report.
 */
// Python parity: float.__repr__ (via json.dumps of a float)
export const formatReward = (r: number | null | undefined, none = '—'): string => (r === null || r === undefined ? none : dumpsFloat(r));

/** A recorded reward as shown: the number, or what was recorded when it is not a number (`NaN (not a number)`). */
export const formatRecorded = (r: { readonly recordedReward: number | null; readonly recordedRewardText?: string }, none = '—'): string =>
  r.recordedRewardText ?? formatReward(r.recordedReward, none);

/** What each reward rule checks, in words. */
export const RULE_TEXT: Readonly<Record<RewardRule, string>> = {
  'db-and-outputs': 'the DB hash must match and every required output must appear (τ-bench since 14bf0ef)',
  'outputs-only': 'tasks with required outputs are judged on outputs alone, others on the DB hash (τ-bench up to 7362a17)',
};
