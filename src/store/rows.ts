import type { RowReason } from '../core/contract';
import type { EpisodeHeader, EpisodeSummary } from '../core/contract';
import { isSuccess } from '../core/contract';

/** A reason the overview filters by: one a row carries (core's `RowReason`, either benchmark's), an error, a disagreement. */
export type ReasonFilter = RowReason | 'error' | 'disagree';
export type SortKey = 'index' | 'task' | 'trial' | 'recorded' | 'reward' | 'turns';

export interface Filters {
  readonly failedOnly: boolean;
  readonly reason: ReasonFilter | null;
  readonly taskId: number | null;
}

export interface Sort {
  readonly key: SortKey;
  readonly desc: boolean;
}

export const NO_FILTERS: Filters = { failedOnly: false, reason: null, taskId: null };

/** Failed by the recomputed reward once known, by the recorded one until then; errors count as failed. */
export function isFailed(h: EpisodeHeader, s: EpisodeSummary | undefined): boolean {
  if (s) return s.error !== null || s.reward === null || !isSuccess(s.reward);
  return h.recordedReward !== null && !isSuccess(h.recordedReward);
}

function matchesReason(s: EpisodeSummary | undefined, r: ReasonFilter): boolean {
  if (!s) return false;
  if (r === 'error') return s.error !== null;
  if (r === 'disagree') return s.agrees === false;
  return s.reasons.includes(r);
}

const nullsLast = (a: number | null, b: number | null): number => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b);

function compare(key: SortKey, ha: EpisodeHeader, hb: EpisodeHeader, sa: EpisodeSummary | undefined, sb: EpisodeSummary | undefined): number {
  switch (key) {
    case 'index':
      return ha.index - hb.index;
    case 'task':
      return nullsLast(ha.taskId, hb.taskId) || nullsLast(ha.trial, hb.trial);
    case 'trial':
      return nullsLast(ha.trial, hb.trial) || nullsLast(ha.taskId, hb.taskId);
    case 'recorded':
      return nullsLast(ha.recordedReward, hb.recordedReward);
    case 'reward':
      return nullsLast(sa?.reward ?? null, sb?.reward ?? null) || Number(sa?.agrees ?? true) - Number(sb?.agrees ?? true);
    case 'turns':
      return ha.turns - hb.turns;
  }
}

/** Indices of the rows to show, filtered and sorted (ties keep file order). */
export function visibleRows(
  headers: readonly EpisodeHeader[],
  summaries: readonly (EpisodeSummary | undefined)[],
  filters: Filters,
  sort: Sort,
  hits: ReadonlySet<number> | null,
): number[] {
  const out: number[] = [];
  for (const h of headers) {
    const s = summaries[h.index];
    if (filters.failedOnly && !isFailed(h, s)) continue;
    if (filters.reason !== null && !matchesReason(s, filters.reason)) continue;
    if (filters.taskId !== null && h.taskId !== filters.taskId) continue;
    if (hits !== null && !hits.has(h.index)) continue;
    out.push(h.index);
  }
  if (sort.key === 'index' && !sort.desc) return out;
  const dir = sort.desc ? -1 : 1;
  return out.sort((a, b) => dir * compare(sort.key, headers[a]!, headers[b]!, summaries[a], summaries[b]) || a - b);
}

/** Memoises `visibleRows` on the identity of its inputs. */
export function rowsSelector(): typeof visibleRows {
  let last: { args: Parameters<typeof visibleRows>; rows: number[] } | null = null;
  return (...args) => {
    if (last && last.args.every((a, i) => a === args[i])) return last.rows;
    const rows = visibleRows(...args);
    last = { args, rows };
    return rows;
  };
}
