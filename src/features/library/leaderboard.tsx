import { useMemo } from 'react';
import { formatCounts, formatPassK, formatPassValue } from '../../core/contract';
import { leaderboard, NO_NUM_TRIALS, type LeaderRow } from '../../store/library-stats';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { benchDomain, runName } from './run-label';

/** The largest k shown as its own column (the rest are in each row's title). */
const K_SHOWN = 4;

function passCell(r: LeaderRow, k: number) {
  const now = r.recomputed[k - 1];
  const rec = r.recorded[k - 1];
  const differs = now !== undefined && rec !== undefined && formatPassValue(now) !== formatPassValue(rec);
  return (
    <td key={k} className="px-2 py-1 text-right tabular-nums whitespace-nowrap">
      <span className="font-semibold text-slate-900">{formatPassValue(now)}</span>
      <span className={`block text-[11px] ${differs ? 'text-violet-700' : 'text-slate-600'}`}>rec. {formatPassValue(rec)}</span>
    </td>
  );
}

/**
 * Run × domain: pass^1…pass^k recomputed (and recorded beneath), computed for each run by the same pass^k as
 * its own overview, with what they are over: episodes, tasks × trials, passes of episodes.
 */
export function Leaderboard() {
  const store = useAppStore();
  const table = useApp((s) => s.library.table);
  const filters = useApp((s) => s.libraryFilters);
  const rows = useMemo(() => (table ? leaderboard(table, filters) : []), [table, filters]);
  const ks = Math.min(K_SHOWN, Math.max(1, ...rows.map((r) => r.recomputed.length)));
  const oldIndex = rows.some((r) => r.trialsNote !== null);
  if (rows.length === 0) return <p className="p-4 text-sm text-slate-600">No run matches the filters.</p>;
  return (
    <div className="overflow-x-auto">
      <p className="sticky left-0 max-w-[100vw] px-2 pt-2 pb-1 text-xs text-slate-600">
        {rows.length} run{rows.length === 1 ? '' : 's'}, best recomputed pass^1 first. pass^k by each benchmark’s own rule (τ-bench: over tasks, n = the run’s
        distinct trials; τ²: infrastructure errors left out, each task over its own trials, k up to the run’s info.num_trials or the fewest trials of any task,
        whichever is less); an episode that cannot be judged counts as a failed trial, as in the run’s own overview.
      </p>
      {oldIndex && (
        <p className="sticky left-0 max-w-[100vw] px-2 pb-1 text-xs text-amber-800" data-testid="leaderboard-note">
          τ² runs marked “k: fewest trials”: {NO_NUM_TRIALS}.
        </p>
      )}
      <table className="w-full min-w-[52rem] text-sm" data-testid="leaderboard">
        <thead className="border-y border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th className="px-2 py-1 font-medium">Run</th>
            <th className="px-2 py-1 font-medium">Benchmark · domain</th>
            <th className="px-2 py-1 font-medium">Model</th>
            <th className="px-2 py-1 text-right font-medium">Episodes</th>
            <th className="px-2 py-1 text-right font-medium">Tasks × trials</th>
            <th className="px-2 py-1 text-right font-medium">Passes</th>
            {Array.from({ length: ks }, (_, i) => (
              <th key={i} className="px-2 py-1 text-right font-medium">
                pass^{i + 1}
              </th>
            ))}
            <th className="px-2 py-1 text-right font-medium">≠ recorded</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.run}
              className="border-b border-slate-100 align-top hover:bg-slate-50"
              data-testid="leader-row"
              data-file={r.info.file}
              data-pass-k={formatPassK(r.recomputed, ', ')}
              data-recorded-pass-k={formatPassK(r.recorded, ', ')}
              title={`${safeLabel(r.info.file, 400)}\nrecomputed: ${formatPassK(r.recomputed)}\nrecorded: ${formatPassK(r.recorded)}`}
            >
              <td className="max-w-[11rem] px-2 py-1 sm:max-w-[18rem]">
                <Button variant="link" className="max-w-full truncate text-left" onClick={() => store.getState().openLibraryRun(r.run, null)}>
                  {runName(r.info)}
                </Button>
              </td>
              <td className="px-2 py-1 whitespace-nowrap">{benchDomain(r.info.benchmark, r.info.domain)}</td>
              <td className="max-w-[12rem] truncate px-2 py-1">
                {r.info.model === null ? <span className="text-slate-600">not recorded</span> : safeLabel(r.info.model, 80)}
              </td>
              <td className="px-2 py-1 text-right tabular-nums">{r.episodes}</td>
              <td className="px-2 py-1 text-right tabular-nums">
                {r.tasks} × {r.trials}
                {r.trialsNote !== null && (
                  <span className="block text-[11px] text-amber-700" title={r.trialsNote}>
                    k: fewest trials
                  </span>
                )}
              </td>
              <td className="px-2 py-1 text-right tabular-nums whitespace-nowrap">
                {formatCounts({ passes: r.passes, trials: r.episodes })}
                <span className="block text-[11px] text-slate-600">rec. {formatCounts({ passes: r.recordedPasses, trials: r.recordedEpisodes })}</span>
              </td>
              {Array.from({ length: ks }, (_, i) => passCell(r, i + 1))}
              <td className={`px-2 py-1 text-right tabular-nums ${r.disagree ? 'text-violet-700' : ''}`}>
                {r.disagree}
                {r.errors > 0 && <span className="block text-[11px] text-amber-700">{r.errors} not judged</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
