import { dumpsFloat } from '../py/json-dumps';
import { shortCommit, type DataLabel, type RewardRule } from '../model/data/versions';

/**
 * The one presentation module: rewards, counts, ratios and data versions as every surface shows them
 * (the overview table, the verdict, the compare view, the CLI and the offline report).
 */

/** A reward as τ-bench prints it: a Python float (`1.0`, `0.0`, `0.93`); `—` (or `none`) when there is none. */
// Python parity: float.__repr__ (via json.dumps of a float)
export const formatReward = (r: number | null | undefined, none = '—'): string => (r === null || r === undefined ? none : dumpsFloat(r));

/** Passes out of trials (`3/4`); `–` when there were no trials. */
export const formatCounts = (c: { readonly passes: number; readonly trials: number }): string => (c.trials === 0 ? '–' : `${c.passes}/${c.trials}`);

/** A mean or rate to three decimals (`0.667`); `–` when there is nothing to divide. */
export const formatRatio = (total: number, n: number): string => (n === 0 ? '–' : (total / n).toFixed(3));

/** One pass^k value to three decimals (`0.750`); `–` when there is none (a run with fewer trials than k). */
export const formatPassValue = (p: { readonly value: number } | undefined): string => (p === undefined ? '–' : p.value.toFixed(3));

/** A pass^k curve in one line: `pass^1 0.750 · pass^2 0.500`. */
export const formatPassK = (points: readonly { readonly k: number; readonly value: number }[], sep = ' · '): string =>
  points.map((p) => `pass^${p.k} ${formatPassValue(p)}`).join(sep);

/** A data version in a few words: `14bf0ef (2025-03-24)`, `unrecognised data (initial hash 3f2a…)`, `none: invented sample data`. */
export function describeData(d: DataLabel): string {
  switch (d.kind) {
    case 'known':
      return `${shortCommit(d.commit)} (${d.date})`;
    case 'unrecognised':
      return `unrecognised data (initial hash ${d.initialHash}…)`;
    case 'sample':
      return 'none: invented sample data';
  }
}

/** A data version in one token, for tight places (CLI headers, the compare view): `14bf0ef`, `unrecognised:3f2a…`, `sample`. */
export function shortData(d: DataLabel): string {
  switch (d.kind) {
    case 'known':
      return shortCommit(d.commit);
    case 'unrecognised':
      return `unrecognised:${d.initialHash}`;
    case 'sample':
      return 'sample';
  }
}

const APART_WHAT = { domain: 'domain', data: 'data version', rule: 'rule' } as const;

/** How two runs were judged apart, in one clause: `data version 14bf0ef (A) vs 7362a17 (B); rule …`. */
export const describeApart = (apart: readonly { readonly what: keyof typeof APART_WHAT; readonly a: string; readonly b: string }[]): string =>
  apart.map((x) => `${APART_WHAT[x.what]} ${x.a} (A) vs ${x.b} (B)`).join('; ');

/** What each reward rule checks, in a few words (the header's detection line). */
export const RULE_SHORT: Readonly<Record<RewardRule, string>> = {
  'db-and-outputs': 'DB hash and required outputs',
  'outputs-only': 'required outputs only, for tasks that have them',
};
/** A recorded reward as shown: the number, or what was recorded when it is not a number (`NaN (not a number)`). */
export const formatRecorded = (r: { readonly recordedReward: number | null; readonly recordedRewardText?: string }, none = '—'): string =>
  r.recordedRewardText ?? formatReward(r.recordedReward, none);

/** What each reward rule checks, in words. */
export const RULE_TEXT: Readonly<Record<RewardRule, string>> = {
  'db-and-outputs': 'the DB hash must match and every required output must appear (τ-bench since 14bf0ef)',
  'outputs-only': 'tasks with required outputs are judged on outputs alone, others on the DB hash (τ-bench up to 7362a17)',
};
