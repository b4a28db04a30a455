import { useMemo, useState } from 'react';
import { formatCounts, formatPassK, formatPassValue } from '../../core/contract';
import {
  comparePaired,
  INTERVAL_METHOD,
  leaderboard,
  MIN_RANKED_TASKS,
  NO_NUM_TRIALS,
  PAIRED_METHOD,
  rankGroup,
  runTallies,
  type LeaderRow,
  type LibraryTable,
  type PairedComparison,
} from '../../store/library-stats';
import { Button } from '../../ui/button';
import { FOCUS_FIELD } from '../../ui/focus';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { benchDomain, runName } from './run-label';

/** The largest k shown as its own column (the rest are in each row's title). */
const K_SHOWN = 4;

const f3 = (x: number): string => x.toFixed(3);
const f2 = (x: number): string => x.toFixed(2);

/** A pass^k cell: recomputed value, its 95 % interval beneath, the recorded one beneath that. */
function passCell(r: LeaderRow, k: number) {
  const now = r.recomputed[k - 1];
  const rec = r.recorded[k - 1];
  const ci = r.intervals[k - 1];
  const differs = now !== undefined && rec !== undefined && formatPassValue(now) !== formatPassValue(rec);
  const title =
    ci === undefined
      ? `pass^${k}: none (fewer trials than ${k})`
      : `pass^${k} = ${f3(ci.value)} over ${ci.tasks} task${ci.tasks === 1 ? '' : 's'}; 95 % interval ${f3(ci.lo)} to ${f3(ci.hi)}.\n${INTERVAL_METHOD}`;
  return (
    <td key={k} className="px-1 py-1 text-right tabular-nums whitespace-nowrap sm:px-2" title={title} data-testid={`pass-${k}`}>
      <span className="font-semibold text-slate-900">{formatPassValue(now)}</span>
      {ci !== undefined && (
        <span className="block text-[10px] text-slate-600" data-testid="pass-interval">
          {f2(ci.lo)}–{f2(ci.hi)}
        </span>
      )}
      <span className={`block text-[10px] ${differs ? 'text-violet-700' : 'text-slate-600'}`}>rec. {formatPassValue(rec)}</span>
    </td>
  );
}

/** The paired comparison in one sentence. */
export function comparisonText(c: PairedComparison, a: string, b: string): string {
  if (c.tasks === 0) return `${a} and ${b} share no task: nothing to compare.`;
  const d = `${c.diff >= 0 ? '+' : ''}${f3(c.diff)} (95 % interval ${f3(c.lo)} to ${f3(c.hi)})`;
  const head =
    c.better === 'a' ? `${a} better than ${b}` : c.better === 'b' ? `${b} better than ${a}` : `No difference shown between ${a} and ${b}: the interval holds 0`;
  const noise =
    c.noise === null
      ? ''
      : c.withinNoise
        ? `; smaller than the noise floor (${f3(c.noise)}): within what one run does from trial to trial`
        : `; larger than the noise floor (${f3(c.noise)})`;
  const left = c.onlyA + c.onlyB > 0 ? `; ${c.onlyA + c.onlyB} task${c.onlyA + c.onlyB === 1 ? '' : 's'} in one run only left out` : '';
  return `${head}. pass^1 difference per task ${d} over ${c.tasks} shared tasks; ${c.wins} better, ${c.losses} worse, ${c.ties} equal (sign test p = ${c.signP < 0.001 ? c.signP.toExponential(1) : c.signP.toFixed(3)})${noise}${left}.`;
}

/** Two runs of one benchmark and domain, compared paired by task. */
function Compare({ table, rows }: { table: LibraryTable; rows: readonly LeaderRow[] }) {
  const [a, setA] = useState<number | null>(rows[0]?.run ?? null);
  const [b, setB] = useState<number | null>(rows[1]?.run ?? null);
  const result = useMemo(() => {
    if (a === null || b === null || a === b) return null;
    const ta = runTallies(table, a);
    const tb = runTallies(table, b);
    return ta && tb ? comparePaired(ta.tallies, tb.tallies, ta.noise, tb.noise) : null;
  }, [table, a, b]);
  const name = (run: number | null): string => (run === null ? '' : runName(table.runs[run]!));
  const pick = (value: number | null, set: (v: number) => void, label: string) => (
    <label className="flex min-w-0 flex-col text-[11px] text-slate-600">
      {label}
      <select
        className={`w-full max-w-[16rem] rounded-md border border-slate-300 bg-white px-1.5 py-1 text-sm text-slate-900 ${FOCUS_FIELD}`}
        value={value ?? ''}
        data-testid={`compare-${label === 'Run A' ? 'a' : 'b'}`}
        onChange={(e) => set(Number(e.currentTarget.value))}
      >
        {rows.map((r) => (
          <option key={r.run} value={r.run}>
            {runName(r.info)}
          </option>
        ))}
      </select>
    </label>
  );
  if (rows.length < 2) return null;
  return (
    <details className="px-2 pb-2 text-xs text-slate-700" data-testid="run-compare">
      <summary className="cursor-pointer font-medium text-indigo-800">Compare two runs, paired by task</summary>
      <div className="mt-1 flex flex-wrap items-end gap-2">
        {pick(a, setA, 'Run A')}
        {pick(b, setB, 'Run B')}
      </div>
      <p className="mt-1 max-w-prose" data-testid="compare-result" data-better={result?.better ?? ''} title={PAIRED_METHOD}>
        {a === b ? 'Pick two different runs.' : result === null ? '' : comparisonText(result, name(a), name(b))}
      </p>
    </details>
  );
}

function noiseCell(r: LeaderRow) {
  if (r.noise === null) return <td className="px-2 py-1 text-right text-[11px] text-slate-600">one trial</td>;
  const n = r.noise;
  return (
    <td
      className="px-2 py-1 text-right tabular-nums whitespace-nowrap"
      title={`pass^1 of each trial on its own: ${n.perTrial.map((p) => `trial ${p.trial} ${f3(p.value)}`).join(', ')}. The noise floor is their standard deviation: a difference between runs smaller than it is within what this run does from trial to trial.`}
      data-testid="noise-floor"
    >
      ±{f3(n.sd)}
      <span className="block text-[11px] text-slate-600">
        {f2(n.min)}–{f2(n.max)}, {n.trials} trials
      </span>
    </td>
  );
}

/** One benchmark and domain: its runs, ranked then listed, and a paired comparison of two of them. */
function Group({ table, rows, ks }: { table: LibraryTable; rows: readonly LeaderRow[]; ks: number }) {
  const store = useAppStore();
  const first = rows[0]!;
  const title = benchDomain(first.info.benchmark, first.info.domain);
  const ranked = rows.filter((r) => r.rank !== null).length;
  return (
    <section className="mb-3" aria-label={`Leaderboard, ${title}`} data-testid="leader-group" data-group={title}>
      <h3 className="sticky left-0 px-2 pt-2 text-sm font-semibold text-slate-900">
        {title}{' '}
        <span className="font-normal text-slate-600">
          · {ranked} ranked{rows.length > ranked ? `, ${rows.length - ranked} listed, not ranked (fewer than ${MIN_RANKED_TASKS} tasks)` : ''}
        </span>
      </h3>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="leaderboard">
          <thead className="border-y border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
            <tr>
              <th className="w-6 px-1 py-1 text-right font-medium" title="Rank within this benchmark and domain">
                #
              </th>
              <th className="px-1 py-1 font-medium sm:px-2">Run</th>
              {Array.from({ length: ks }, (_, i) => (
                <th key={i} className="px-1 py-1 text-right font-medium sm:px-2" title={INTERVAL_METHOD}>
                  pass^{i + 1}
                </th>
              ))}
              <th className="px-2 py-1 text-right font-medium">Tasks × trials</th>
              <th className="px-2 py-1 text-right font-medium">Passes</th>
              <th className="px-2 py-1 text-right font-medium" title="Trial-to-trial spread of pass^1 (standard deviation), for runs with two trials or more">
                Noise floor
              </th>
              <th className="px-2 py-1 font-medium">Model</th>
              <th className="px-2 py-1 text-right font-medium">≠ recorded</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.run}
                className={`border-b border-slate-100 align-top hover:bg-slate-50 ${r.rank === null ? 'bg-slate-50/60' : ''}`}
                data-testid="leader-row"
                data-file={r.info.file}
                data-rank={r.rank ?? ''}
                data-pass-k={formatPassK(r.recomputed, ', ')}
                data-recorded-pass-k={formatPassK(r.recorded, ', ')}
                title={`${safeLabel(r.info.file, 400)}\nrecomputed: ${formatPassK(r.recomputed)}\nrecorded: ${formatPassK(r.recorded)}`}
              >
                <td className="px-1 py-1 text-right tabular-nums text-slate-700" title={r.unranked ?? `rank ${r.rank} of ${ranked} in ${title}`}>
                  {r.rank ?? '–'}
                </td>
                <td className="max-w-[6.5rem] px-1 py-1 sm:max-w-[18rem] sm:px-2">
                  <Button variant="link" className="max-w-full truncate text-left" onClick={() => store.getState().openLibraryRun(r.run, null)}>
                    {runName(r.info)}
                  </Button>
                  <span className="block truncate text-[11px] text-slate-600" data-testid="leader-denominator">
                    {r.tasks} tasks × {r.trials}
                  </span>
                  {r.unranked !== null && (
                    <span className="block text-[11px] text-amber-800" data-testid="unranked" title={r.unranked}>
                      not ranked
                    </span>
                  )}
                </td>
                {Array.from({ length: ks }, (_, i) => passCell(r, i + 1))}
                <td className="px-2 py-1 text-right tabular-nums">
                  {r.tasks} × {r.trials}
                  <span className="block text-[11px] text-slate-600">{r.episodes} episodes</span>
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
                {noiseCell(r)}
                <td className="max-w-[12rem] truncate px-2 py-1">
                  {r.info.model === null ? <span className="text-slate-600">not recorded</span> : safeLabel(r.info.model, 80)}
                </td>
                <td className={`px-2 py-1 text-right tabular-nums ${r.disagree ? 'text-violet-700' : ''}`}>
                  {r.disagree}
                  {r.errors > 0 && <span className="block text-[11px] text-amber-700">{r.errors} not judged</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Compare table={table} rows={rows} />
    </section>
  );
}

/**
 * The leaderboard, one table per benchmark and domain (never mixed): pass^1…pass^k recomputed with their 95 %
 * intervals (recorded beneath), ranked from the minimum of tasks, with the noise floor of runs with two trials or
 * more, and two runs compared paired by task.
 */
export function Leaderboard() {
  const table = useApp((s) => s.library.table);
  const filters = useApp((s) => s.libraryFilters);
  const rows = useMemo(() => (table ? leaderboard(table, filters) : []), [table, filters]);
  const groups = useMemo(() => {
    const out = new Map<string, LeaderRow[]>();
    for (const r of rows) out.set(rankGroup(r.info), [...(out.get(rankGroup(r.info)) ?? []), r]);
    return [...out.values()];
  }, [rows]);
  const ks = Math.min(K_SHOWN, Math.max(1, ...rows.map((r) => r.recomputed.length)));
  const oldIndex = rows.some((r) => r.trialsNote !== null);
  if (!table || rows.length === 0) return <p className="p-4 text-sm text-slate-600">No run matches the filters.</p>;
  return (
    <div>
      <p className="px-2 pt-2 pb-1 text-xs text-slate-600">
        {rows.length} run{rows.length === 1 ? '' : 's'}, ranked within each benchmark and domain by recomputed pass^1; a run of fewer than {MIN_RANKED_TASKS}{' '}
        tasks is listed, not ranked. Under each pass^k its 95 % interval (a seeded bootstrap over tasks; hover for the method), then the recorded value. pass^k
        by each benchmark’s own rule (τ-bench: over tasks, n = the run’s distinct trials; τ²: infrastructure errors left out, each task over its own trials, k
        up to the run’s info.num_trials or the fewest trials of any task, whichever is less); an episode that cannot be judged counts as a failed trial, as in
        the run’s own overview.
      </p>
      {oldIndex && (
        <p className="px-2 pb-1 text-xs text-amber-800" data-testid="leaderboard-note">
          τ² runs marked “k: fewest trials”: {NO_NUM_TRIALS}.
        </p>
      )}
      {groups.map((g) => (
        <Group key={rankGroup(g[0]!.info)} table={table} rows={g} ks={ks} />
      ))}
    </div>
  );
}
