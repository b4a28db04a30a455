import { useMemo, useState } from 'react';
import { formatCounts, formatPassK, formatPassValue } from '../../core/contract';
import {
  BOARD_ROWS,
  comparePaired,
  costPerEpisode,
  INTERVAL_METHOD,
  MIN_RANKED_TASKS,
  NO_NUM_TRIALS,
  PAIRED_METHOD,
  passPerDollar,
  runTallies,
  type LeaderRow,
  type LibraryTable,
  type PairedComparison,
} from '../../core/contract';
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
  const [open, setOpen] = useState(false);
  const [a, setA] = useState<number | null>(rows[0]?.run ?? null);
  const [b, setB] = useState<number | null>(rows[1]?.run ?? null);
  const result = useMemo(() => {
    if (!open || a === null || b === null || a === b) return null;
    const ta = runTallies(table, a);
    const tb = runTallies(table, b);
    return ta && tb ? comparePaired(ta.tallies, tb.tallies, ta.noise, tb.noise) : null;
  }, [open, table, a, b]);
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
    <details className="px-2 pb-2 text-xs text-slate-700" data-testid="run-compare" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer font-medium text-indigo-800">Compare two runs, paired by task</summary>
      {open && (
        <>
          <div className="mt-1 flex flex-wrap items-end gap-2">
            {pick(a, setA, 'Run A')}
            {pick(b, setB, 'Run B')}
          </div>
          <p className="mt-1 max-w-prose" data-testid="compare-result" data-better={result?.better ?? ''} title={PAIRED_METHOD}>
            {a === b ? 'Pick two different runs.' : result === null ? '' : comparisonText(result, name(a), name(b))}
          </p>
        </>
      )}
    </details>
  );
}

/** A mean per simulation of a spend column, with how many rows record it when not all do; "not recorded" when none does. */
function perSim(r: LeaderRow, key: keyof LeaderRow['spend'], show: (x: number) => string): string {
  const s = r.spend[key];
  if (s.rows === 0) return 'not recorded';
  return `${show(s.sum / s.rows)}${s.rows < r.episodes ? ` (${s.rows} of ${r.episodes})` : ''}`;
}

/** Cost and time as the files record them: never 0 for what a file does not record. */
function spendCell(r: LeaderRow) {
  const cost = costPerEpisode(r);
  const per = passPerDollar(r);
  const tokens = r.spend.prompt_tokens.rows + r.spend.completion_tokens.rows > 0;
  const tok = (r.spend.prompt_tokens.sum + r.spend.completion_tokens.sum) / Math.max(r.spend.prompt_tokens.rows, r.spend.completion_tokens.rows, 1);
  return (
    <td
      className="px-2 py-1 text-right text-[11px] whitespace-nowrap tabular-nums text-slate-700"
      data-testid="spend"
      title={`Per simulation, as the file records it (agent_cost + user_cost, duration, usage tokens); “not recorded” where it records none.\nagent cost: ${perSim(r, 'agent_cost', (x) => `$${x.toFixed(4)}`)}\nuser cost: ${perSim(r, 'user_cost', (x) => `$${x.toFixed(4)}`)}\nduration: ${perSim(r, 'duration', (x) => `${x.toFixed(1)} s`)}\nprompt tokens: ${perSim(r, 'prompt_tokens', (x) => x.toFixed(0))}\ncompletion tokens: ${perSim(r, 'completion_tokens', (x) => x.toFixed(0))}`}
    >
      <span className="block text-sm text-slate-900">
        {cost === null ? <span className="text-slate-600">agent cost not recorded</span> : `$${cost.toFixed(4)}/sim`}
      </span>
      {cost === null && r.spend.user_cost.rows > 0 && <span className="block">user {perSim(r, 'user_cost', (x) => `$${x.toFixed(4)}/sim`)}</span>}
      {per !== null && <span className="block">{per.toFixed(1)} pass^1/$</span>}
      <span className="block">{perSim(r, 'duration', (x) => `${x.toFixed(1)} s/sim`)}</span>
      <span className="block">{tokens ? `${Math.round(tok).toLocaleString('en')} tokens/sim` : 'tokens not recorded'}</span>
    </td>
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
function Group({ table, rows, ranked, total, ks }: { table: LibraryTable; rows: readonly LeaderRow[]; ranked: number; total: number; ks: number }) {
  const store = useAppStore();
  const first = rows[0]!;
  const title = benchDomain(first.info.benchmark, first.info.domain);
  return (
    <section
      className="mb-3 [contain-intrinsic-size:auto_40rem] [content-visibility:auto]"
      aria-label={`Leaderboard, ${title}`}
      data-testid="leader-group"
      data-group={title}
    >
      <h3 className="sticky left-0 px-2 pt-2 text-sm font-semibold text-slate-900">
        {title}{' '}
        <span className="font-normal text-slate-600">
          · {ranked} ranked{total > ranked ? `, ${total - ranked} listed, not ranked (fewer than ${MIN_RANKED_TASKS} tasks)` : ''}
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
              <th className="px-2 py-1 text-right font-medium" title="Cost, time and tokens per simulation, as the files record them; pass^1 per dollar">
                Cost · time
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
                {spendCell(r)}
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

/** While the worker computes the views, or when it could not. */
export function StatsStatus() {
  const st = useApp((s) => s.libraryStats);
  if (st.error !== null)
    return (
      <p className="m-2 text-sm text-rose-900" role="alert">
        Could not compute the library’s views: {safeLabel(st.error, 300)}
      </p>
    );
  if (st.stats === null || st.pending)
    return (
      <p className="px-2 py-1 text-xs text-slate-600" role="status" data-testid="library-computing">
        Computing in the background…
      </p>
    );
  return null;
}

/**
 * The leaderboard, one table per benchmark and domain (never mixed): pass^1…pass^k recomputed with their 95 %
 * intervals (recorded beneath), ranked from the minimum of tasks, with the noise floor of runs with two trials or
 * more, and two runs compared paired by task. Computed in the worker (`library-stats`); each table shows its first
 * rows, more on request.
 */
export function Leaderboard() {
  const store = useAppStore();
  const table = useApp((s) => s.library.table);
  const st = useApp((s) => s.libraryStats);
  const stats = st.stats;
  if (!table || !stats) return <StatsStatus />;
  if (stats.runs === 0) return <p className="p-4 text-sm text-slate-600">No run matches the filters.</p>;
  const ks = Math.min(K_SHOWN, stats.maxK);
  return (
    <div>
      <StatsStatus />
      <p className="px-2 pt-2 pb-1 text-xs text-slate-600">
        {stats.runs} run{stats.runs === 1 ? '' : 's'}, ranked within each benchmark and domain by recomputed pass^1; a run of fewer than {MIN_RANKED_TASKS}{' '}
        tasks is listed, not ranked. Under each pass^k its 95 % interval (a seeded bootstrap over tasks; hover for the method), then the recorded value. pass^k
        by each benchmark’s own rule (τ-bench: over tasks, n = the run’s distinct trials; τ²: infrastructure errors left out, each task over its own trials, k
        up to the run’s info.num_trials or the fewest trials of any task, whichever is less); an episode that cannot be judged counts as a failed trial, as in
        the run’s own overview.
      </p>
      {stats.oldIndex && (
        <p className="px-2 pb-1 text-xs text-amber-800" data-testid="leaderboard-note">
          τ² runs marked “k: fewest trials”: {NO_NUM_TRIALS}.
        </p>
      )}
      {stats.board.map((g) => (
        <div key={g.key}>
          <Group table={table} rows={g.rows} ranked={g.ranked} total={g.total} ks={ks} />
          {g.rows.length < g.total && (
            <Button
              variant="quiet"
              className="mx-2 mb-3 text-xs"
              disabled={st.pending}
              data-testid="leader-more"
              onClick={() => store.getState().requestLibraryStats(st.rows + BOARD_ROWS)}
            >
              Show {Math.min(BOARD_ROWS, g.total - g.rows.length)} more of {g.total - g.rows.length}
            </Button>
          )}
        </div>
      ))}
    </div>
  );
}
