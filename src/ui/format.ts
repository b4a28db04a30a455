import { KNOWN_DATA_VERSIONS, shortCommit } from '../core/contract';

export const formatReward = (r: number | null | undefined): string => (r === null || r === undefined ? '—' : Number.isInteger(r) ? r.toFixed(0) : r.toFixed(2));

/** A recorded reward: the number, or what was recorded when it is not one (`NaN (not a number)`). */
export const formatRecordedReward = (r: { readonly recordedReward: number | null; readonly recordedRewardText?: string }): string =>
  r.recordedRewardText ?? formatReward(r.recordedReward);

export const formatBytes = (n: number): string =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

export function describeCommit(commit: string): string {
  if (commit === 'sample-runs/data') return 'none: invented sample data';
  if (commit.startsWith('unknown:')) return `unrecognised data (initial hash ${commit.slice(8)}…)`;
  const known = KNOWN_DATA_VERSIONS.find((k) => k.commit === commit);
  return known ? `${shortCommit(commit)} (${known.date})` : shortCommit(commit);
}
