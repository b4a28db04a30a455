import {
  DEFAULT_DATA_BASE,
  describeData,
  type InspectSession,
  formatRatio,
  formatReward,
  inertJson,
  type Domain,
  type EpisodeReport,
  type RewardRule,
  type Tau2Run,
} from '../../core/contract';
import { gatheredLines } from '../output';
import { openSession } from '../open-session';
import { evaluateTau2Runs, readTau2Run } from '../tau2/commands';
import { basename, dirname, join } from 'node:path';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { positiveInt } from './index';
import { DEFAULT_POOL_MIN_BYTES, defaultJudgingThreads, POOL_MIN_BYTES, streamEvaluate } from '../stream-evaluate';
import { terminalSafe } from '../terminal';
import { JUDGING_OPTIONS, parseCommand, positionalFiles, judgingOptions, UsageError } from '../usage';

export const USAGE = `usage: tau-inspect evaluate RESULTS.json [MORE τ² RUNS…] [--data DIR_OR_URL] [--json] [--domain retail|airline]
                            [--data-version COMMIT] [--rule db-and-outputs|outputs-only] [--no-cache] [--jobs N]

  Re-evaluates a τ-bench results file (run.py output) with a bit-exact port of τ-bench's
  tools and evaluator, and prints one verdict per episode. A τ²-bench results file (or a run
  folder: results.json + simulations/) is judged as τ² v1.0.1 judges it, one line per simulation;
  its --data is laid out <commit>/data/tau2/domains/<domain>/… (default: τ²'s public raw file host).
  Several τ² runs are judged in one process (each domain's DB loaded once; JSON lines start with "file").

  --data          τ-bench data: a directory or URL base laid out as <commit>/tau_bench/envs/<domain>/data/*.json,
                  or a tau-bench checkout (tau_bench/envs/...). Default: $TAU_BENCH_DATA, else ${DEFAULT_DATA_BASE}
  --json          one JSON object per episode per line (stdout); detection notes go to stderr
  --domain        skip domain detection
  --data-version  use this data version (full or short commit) instead of detecting it
  --rule          use this reward rule instead of detecting it
  --no-cache      read and validate τ²'s DB files and hash τ-bench's every time (by default validated DBs, and
                  τ-bench's record texts and reference-replay hashes, are kept by the data files' content in
                  $XDG_CACHE_HOME/tau-inspect or ~/.cache/tau-inspect)
  --jobs          with --json, threads judging a τ-bench file of 2 MB or more, the one that reads the file and prints
                  the lines in file order among them; default: one fewer than the cores for a file of 16 MB or more
                  (V8's collector and compiler keep about one core busy), else that thread alone`;

interface Options {
  readonly file: string;
  /** Every file named (several only for τ²-bench runs). */
  readonly files: readonly string[];
  readonly data: string;
  /** `--data` as given (τ² runs default to τ²'s own data host, not τ-bench's). */
  readonly dataArg: string | undefined;
  readonly json: boolean;
  readonly domain?: Domain;
  readonly dataVersion?: string;
  readonly rule?: RewardRule;
  /** `--jobs`, null when not given (then `defaultJudgingThreads`, for a big file only). */
  readonly jobs: number | null;
}

const OPTIONS = { ...JUDGING_OPTIONS, jobs: { type: 'string' } } as const;

function readArgs(rest: string[]): Options | 'help' {
  const parsed = parseCommand(rest, OPTIONS, USAGE);
  if (parsed === null) return 'help';
  const { values, positionals } = parsed;
  const files = positionalFiles(positionals, 1, Infinity, 'missing RESULTS.json');
  return {
    file: files[0]!,
    files,
    data: values.data ?? (process.env.TAU_BENCH_DATA || DEFAULT_DATA_BASE),
    dataArg: values.data,
    json: values.json,
    jobs: values.jobs === undefined ? null : positiveInt(values.jobs, '--jobs'),
    ...judgingOptions(values),
  };
}

const reward = (r: number | null | undefined): string => formatReward(r, '-');

/** What a table row needs of a report. */
const ROW_FIELDS = [
  'index',
  'task_id',
  'trial',
  'recorded_reward',
  'recorded_reward_text',
  'reward',
  'matches_recorded_reward',
  'error',
  'done',
  'done_by',
] as const;
type Row = Pick<EpisodeReport, (typeof ROW_FIELDS)[number]>;

const row = (r: EpisodeReport): Row => Object.fromEntries(ROW_FIELDS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]])) as unknown as Row;

function table(reports: readonly Row[], why: readonly string[]): string {
  const rows = [['#', 'task', 'trial', 'recorded', 'reward', 'done', 'why']];
  reports.forEach((r, i) => {
    const mark = r.matches_recorded_reward === false ? ' ≠' : '';
    rows.push([
      String(r.index),
      String(r.task_id ?? '-'),
      String(r.trial ?? '-'),
      r.recorded_reward_text ?? reward(r.recorded_reward),
      reward(r.reward) + mark,
      r.error ? '-' : r.done ? (r.done_by ?? 'yes') : 'no',
      why[i]!,
    ]);
  });
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => [...row[c]!].length)));
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n');
}

/** Reads a results file and its data and evaluates every episode with the same session the app's worker uses. */
async function evaluate(o: Options): Promise<void> {
  // A file beside a simulations/ folder is a τ² run in the "dir" format (readTau2Run), read whole.
  if (o.json && o.files.length === 1 && !(await isFolder(o.file)) && !(await isFolder(join(dirname(o.file), 'simulations')))) return evaluateStreaming(o);
  const runs = await Promise.all(o.files.map(async (f) => ({ name: basename(f), run: await readTau2Run(f) })));
  if (runs.every((r) => r.run !== null)) return evaluateTau2Runs(runs as { name: string; run: Tau2Run }[], o.dataArg, o.json);
  if (o.files.length > 1)
    throw new UsageError(`several files are judged together only when all are τ²-bench runs; ${runs.find((r) => r.run === null)!.name} is not`);
  const session = await openSession(o.file, o.data, o);
  // What is printed of each report is made as it comes (a JSON line, or the few fields of a table
  // row), so a 5,000-episode file does not hold 5,000 reports with every step's observation.
  const reports = session.evaluateAll((r) => (o.json ? inertJson(r) : row(r)));
  const notes = detectionNotes(session);
  if (o.json) {
    process.stderr.write(notes.join('\n') + '\n');
    // inertJson escapes every control and bidi character, so the lines are terminal-safe as they are.
    for (const line of reports) process.stdout.write(`${line as string}\n`);
    return;
  }
  const summaries = session.summaries();
  const why = summaries.map((s) => terminalSafe(s.error !== null ? `error: ${s.error}` : s.reasonTexts.join('; ') || 'ok'));
  const rows = reports as Row[];
  const ok = rows.filter((r) => !r.error);
  const total = rows.reduce((s, r) => s + (r.reward ?? 0), 0);
  const agree = ok.filter((r) => r.matches_recorded_reward === true).length;
  process.stdout.write(`${notes.join('\n')}\n\n${table(rows, why)}\n\n`);
  process.stdout.write(
    `${reports.length} episodes, ${ok.length} evaluated, ${reports.length - ok.length} not evaluable; average reward ${formatRatio(total, reports.length)} = ${total}/${reports.length} (episodes that cannot be evaluated count 0, as τ-bench reports); recomputed reward equals the recorded one for ${agree} of ${ok.filter((r) => r.recorded_reward !== null).length}\n`,
  );
}

/** The detection, line by line, for standard error (JSON) or above the table. */
function detectionNotes(session: InspectSession, revised = 0): string[] {
  const d = session.detection();
  const given = (flag: string, why: string): string => (why === 'given' ? `given with ${flag}` : why);
  return [
    ...(d.fileKind === 'tau-bench-results' ? [] : [`file: ${d.fileKindText}`]),
    `domain: ${d.domain} (${given('--domain', d.domainWhy)})`,
    `data: ${d.data.kind === 'known' ? d.dataCommit : describeData(d.data)} from ${d.dataSource} (${given('--data-version', d.versionWhy)})`,
    `rule: ${d.rule} (${given('--rule', d.ruleWhy)})`,
    ...d.notes.map((n) => `note: ${n}`),
    ...(revised > 0
      ? [
          `note: ${revised} episodes were printed again, marked "revised": true — the whole file's recorded values settled the data version or rule (or the file had to be read again) after their first lines were printed; a revised line replaces the earlier line with the same index`,
        ]
      : []),
  ].map(terminalSafe);
}

const isFolder = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/**
 * `--json` on one file: read as it arrives, each line printed as soon as its episode is judged (see
 * `streamEvaluate`: in file order; from an episode whose recorded gt_data_hash the provisional data
 * version does not reproduce on, lines wait for the whole file; a line may be printed again,
 * `"revised": true`). A τ² results object is judged whole, as before.
 */
async function evaluateStreaming(o: Options): Promise<void> {
  // inertJson escapes every control and bidi character, so the lines are terminal-safe as they are.
  const out = gatheredLines();
  let r;
  try {
    r = await streamEvaluate(
      o.file,
      o.data,
      o,
      out.line,
      o.jobs ?? defaultJudgingThreads(availableParallelism()),
      o.jobs === null ? DEFAULT_POOL_MIN_BYTES : POOL_MIN_BYTES,
    );
  } finally {
    out.flush();
  }
  if (r.kind === 'tau2') return evaluateTau2Runs([{ name: basename(o.file), run: r.run }], o.dataArg, true);
  process.stderr.write(detectionNotes(r.session, r.revised).join('\n') + '\n');
}

/** `tau-inspect evaluate RESULTS.json …` */
export async function evaluateCommand(args: string[]): Promise<number> {
  const o = readArgs(args);
  if (o === 'help') return 0;
  await evaluate(o);
  return 0;
}
