import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DEFAULT_DATA_BASE, TAU2_DEFAULT_DATA_BASE } from '../../core/contract';
import type { DataRoots } from '../library/index-file';
import type { FoundRun } from '../library/walk';
import type { IndexRow } from '../../core/contract';
import { fileKey, indexedKeys, readBadFiles, writeBadFiles, writeIndex, type BadFile } from '../library/index-table';
import { dataGroup, IndexPlan } from '../library/plan';
import { IndexPool } from '../library/pool';
import { Progress } from '../library/progress';
import { contentHash, findRuns, shardOf } from '../library/walk';
import { checkDistinctOutputs, checkOutput } from '../output';
import { terminalSafe } from '../terminal';
import { parseCommand, positionalFiles, UsageError } from '../usage';

export const USAGE = `usage: tau-inspect index DIR… -o RUNS.parquet [--data V1_DATA] [--data TAU2_DATA] [--jobs N] [--shard I/N]
                         [--json] [--errors ERRORS.jsonl] [--no-cache]

  Indexes every τ-bench and τ²-bench results file (and τ² run folder: results.json + simulations/)
  under the folders named: one row per episode or simulation, recomputed as evaluate does, written as
  Parquet (through DuckDB) or JSON lines. Columns: file, index, benchmark, domain, task_id, trial,
  recorded_reward, reward, matches_recorded_reward, content_hash, data_version, rule, model, user_model,
  failed_components, termination, finding_kinds, steps, error, num_trials (τ²'s info.num_trials). A file
  already in the output with the same content hash is skipped (a τ² file of an output written without
  num_trials is indexed again); bad files are listed with the reason and never stop the run.

  --data     a τ-bench data folder or URL (tau_bench/envs/… or <commit>/tau_bench/envs/…) and a τ² one
             (data/tau2/domains/… or <commit>/data/tau2/domains/…), told apart by their layout; prefix
             with tau-bench= or tau2= to say which. Defaults: $TAU_BENCH_DATA, else ${DEFAULT_DATA_BASE};
             $TAU2_DATA, else ${TAU2_DEFAULT_DATA_BASE}
  -o         the table to write (- with --json: standard output, no resuming)
  --jobs     worker threads (default: the number of cores)
  --shard    I/N: only every N-th file of the sorted list, starting at the I-th (shards run anywhere;
             their outputs read together are the whole index: read_parquet('runs-*.parquet'))
  --json     JSON lines instead of Parquet
  --errors   where the bad files are listed, one JSON line each (default: the output's name + .errors.jsonl)
  --no-cache read and validate τ²'s DB files every time (by default validated DBs are kept, by the data
             files' content, in $XDG_CACHE_HOME/tau-inspect or ~/.cache/tau-inspect)`;

const OPTIONS = {
  data: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  jobs: { type: 'string' },
  shard: { type: 'string' },
  json: { type: 'boolean', default: false },
  errors: { type: 'string' },
  'no-cache': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const isUrl = (s: string): boolean => /^https?:\/\//.test(s);

/** Whether `rel` is under `dir` or under one of its folders (`<commit>/…`). */
function hasLayout(dir: string, rel: string): boolean {
  if (existsSync(join(dir, rel))) return true;
  return readdirSync(dir, { withFileTypes: true }).some((d) => d.isDirectory() && existsSync(join(dir, d.name, rel)));
}

/** Which benchmark's data a `--data` value is: by a `tau-bench=`/`tau2=` prefix, a local folder's layout, or a URL's name. */
function dataKind(value: string): { kind: 'tau-bench' | 'tau2'; root: string } {
  const m = /^(tau-bench|tau2)=(.*)$/s.exec(value);
  if (m) return { kind: m[1] as 'tau-bench' | 'tau2', root: m[2]! };
  if (isUrl(value)) {
    if (/tau2/i.test(value)) return { kind: 'tau2', root: value };
    if (/tau-bench/i.test(value)) return { kind: 'tau-bench', root: value };
  } else if (existsSync(value) && statSync(value).isDirectory()) {
    if (hasLayout(value, 'tau_bench/envs')) return { kind: 'tau-bench', root: value };
    if (hasLayout(value, 'data/tau2/domains')) return { kind: 'tau2', root: value };
  }
  throw new UsageError(`--data ${value}: neither τ-bench data (tau_bench/envs/…) nor τ² data (data/tau2/domains/…); prefix it with tau-bench= or tau2=`);
}

export function dataRoots(values: readonly string[]): DataRoots {
  const roots = new Map<'tau-bench' | 'tau2', string>();
  for (const v of values) {
    const { kind, root } = dataKind(v);
    if (roots.has(kind)) throw new UsageError(`--data given twice for ${kind}: ${roots.get(kind)} and ${root}`);
    roots.set(kind, root);
  }
  return {
    tauBench: roots.get('tau-bench') ?? (process.env.TAU_BENCH_DATA || DEFAULT_DATA_BASE),
    tau2: roots.get('tau2') ?? (process.env.TAU2_DATA || TAU2_DEFAULT_DATA_BASE),
  };
}

export function positiveInt(text: string, what: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${what} must be a whole number from 1, not '${text}'`);
  return Number(text);
}

function shardArg(text: string | undefined): { i: number; n: number } | null {
  if (text === undefined) return null;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const i = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || i < 1 || i > n) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N, not '${text}'`);
  return { i, n };
}

const defaultErrors = (out: string): string => `${out.replace(/\.(parquet|jsonl?)$/i, '')}.errors.jsonl`;

const posix = (p: string): string => p.split(sep).join('/');

/**
 * How the index names its files: the path from the index's own folder, `/`-separated (`-o -`: the path as found). An
 * index written before names them as they were found (from where it was run, or absolute): such a name is read as
 * either and, when it names a file found now, renamed (`renames`) in the rows and the bad-file list kept.
 */
function indexNames(out: string) {
  const from = out === '-' ? null : dirname(resolve(out));
  const of = (path: string): string => (from === null ? path : posix(relative(from, resolve(path))));
  const found = new Map<string, string>();
  const renames = new Map<string, string>();
  /** The names a stored name may be now: read from the index's folder, and from here (where an older index was run). */
  const candidates = (stored: string): string[] =>
    from === null ? [stored] : [...new Set([posix(relative(from, resolve(from, stored))), ...(isAbsolute(stored) ? [] : [of(stored)])])];
  const renamed = (stored: string): string => {
    for (const c of candidates(stored)) {
      if (!found.has(c)) continue;
      if (c !== stored) renames.set(stored, c);
      return c;
    }
    return stored;
  };
  return {
    of(path: string): string {
      const name = of(path);
      found.set(name, path);
      return name;
    },
    /** A stored `file\0hash` key, as the key of the file named now (it counts as indexed). */
    stored(key: string, into: Set<string>): void {
      const [file = '', hash = ''] = key.split('\0');
      into.add(fileKey(renamed(file), hash));
    },
    renamed,
    renames,
    /** The stored names of files indexed again, new and old spellings, whose rows are replaced. */
    replaced(names: ReadonlySet<string>): Set<string> {
      return new Set([...names, ...[...renames].filter(([, now]) => names.has(now)).map(([old]) => old)]);
    },
  };
}

/** `tau-inspect index DIR… -o RUNS.parquet …` */
export async function indexCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(args, OPTIONS, USAGE);
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  const dirs = positionalFiles(positionals, 1, Infinity, 'missing DIR (a folder of results files)');
  const out = values.output;
  if (out === undefined) throw new UsageError('missing -o RUNS.parquet');
  if (out === '-' && !values.json) throw new UsageError('-o - (standard output) needs --json: Parquet is written to a file');
  const data = dataRoots(values.data ?? []);
  const jobs = values.jobs === undefined ? availableParallelism() : positiveInt(values.jobs, '--jobs');
  const shard = shardArg(values.shard);
  const errorsPath = values.errors ?? (out === '-' ? null : defaultErrors(out));
  const inputs = [
    ...dirs.map((path) => ({ path, role: 'a folder indexed' })),
    { path: data.tauBench, role: 'the τ-bench data' },
    { path: data.tau2, role: 'the τ² data' },
  ];
  // Missing folders of the outputs are made (writeIndex).
  checkOutput(out, inputs, true);
  if (errorsPath !== null) {
    checkOutput(errorsPath, inputs, true);
    checkDistinctOutputs({ path: out, role: 'the index (-o)' }, { path: errorsPath, role: 'the bad-file list (--errors)' });
  }
  for (const d of dirs) if (!existsSync(d)) throw new UsageError(`cannot read ${d}: no such file or folder`);

  const all = await findRuns(dirs);
  // Each file is named from the index's own folder (`runs/a.json`, `../other/b.json`): the folder published anywhere opens every run.
  const names = indexNames(out);
  const named = all.map((r) => ({ ...r, name: names.of(r.path) }));
  const runs = shard ? shardOf(named, shard.i, shard.n) : named;
  const resume = new Set<string>();
  if (out !== '-') for (const k of await indexedKeys(out, values.json)) names.stored(k, resume);
  const earlierBad = (errorsPath === null ? [] : await readBadFiles(errorsPath)).map((b) => ({ ...b, file: names.renamed(b.file) }));
  for (const b of earlierBad) resume.add(fileKey(b.file, b.content_hash));

  const todo: { run: FoundRun & { name: string }; hash: string }[] = [];
  const bad: BadFile[] = [];
  let skipped = 0;
  // Listed by the index's name for it; said on the terminal by the path as found (as it was given).
  const badFile = (run: { name: string; path: string }, hash: string, reason: string): void => {
    bad.push({ file: run.name, content_hash: hash, reason });
    if (process.stderr.isTTY === true) process.stderr.write('\r\x1b[K');
    process.stderr.write(terminalSafe(`bad file: ${run.path}: ${reason}`) + '\n');
  };
  for (const run of runs) {
    // A file that vanished or cannot be read since the walk is a bad file too, never the end of the run.
    const hash = await contentHash(run).catch((e: Error) => e);
    if (hash instanceof Error) badFile(run, '', `cannot be read: ${hash.message}`);
    else if (resume.has(fileKey(run.name, hash))) skipped++;
    else if (run.kind === 'unreadable') badFile(run, hash, run.reason ?? 'cannot be read');
    else todo.push({ run, hash });
  }
  const tty = process.stderr.isTTY === true;
  const progress = new Progress(
    todo.length,
    todo.reduce((s, t) => s + t.run.bytes, 0),
    tty ? (line) => process.stderr.write(`\r\x1b[K${line}`) : null,
  );
  const workers = Math.min(jobs, Math.max(todo.length, 1));
  const rows: IndexRow[] = [];
  const listed = bad.length;
  if (todo.length > 0) {
    const pool = new IndexPool(workers, data);
    try {
      // Files that need the same data to the same worker, biggest first, the bytes balanced (library/plan.ts); the rows are sorted when written.
      const plan = new IndexPlan(
        await Promise.all(todo.map(async (t) => ({ ...t, bytes: t.run.bytes, group: await dataGroup(t.run.path, t.run.kind) }))),
        workers,
      );
      await Promise.all(
        Array.from({ length: workers }, async (_, w) => {
          for (let job = plan.next(w); job !== null; job = plan.next(w)) {
            const { run, hash, group } = job;
            const outcome = await pool.runOn(w, run, hash, group, plan.finished(w, group));
            if ('rows' in outcome) rows.push(...outcome.rows);
            else badFile(run, hash, outcome.error);
            progress.done(run.bytes, 'rows' in outcome ? outcome.rows.length : 0, !('rows' in outcome));
          }
        }),
      );
    } finally {
      await pool.close();
    }
    if (tty) process.stderr.write('\n');
  }
  const reindexed = new Set(todo.map((t) => t.run.name));
  const write = rows.length > 0 || reindexed.size > 0 || names.renames.size > 0 || out === '-' || !existsSync(out);
  if (write) await writeIndex(out, values.json, rows, names.replaced(reindexed), names.renames);
  const redone = new Set([...reindexed, ...bad.map((b) => b.file)]);
  if (errorsPath !== null && (bad.length > 0 || names.renames.size > 0 || earlierBad.some((b) => redone.has(b.file))))
    await writeBadFiles(errorsPath, [...earlierBad.filter((b) => !redone.has(b.file)), ...bad]);
  const s = progress.seconds;
  process.stderr.write(
    terminalSafe(
      `indexed ${todo.length - (bad.length - listed)} files (${rows.length} episodes) in ${s.toFixed(1)} s with ${workers} job${workers === 1 ? '' : 's'}` +
        `${s > 0 && rows.length > 0 ? ` (${(rows.length / s).toFixed(1)} episodes/s)` : ''}; skipped ${skipped} already indexed; ${bad.length} bad` +
        `${bad.length > 0 && errorsPath !== null ? ` (listed in ${errorsPath})` : ''}${shard ? `; shard ${shard.i}/${shard.n}: ${runs.length} of ${all.length} files` : ''}` +
        `${out === '-' ? '' : write ? `; wrote ${out}` : `; ${out} unchanged`}`,
    ) + '\n',
  );
  return 0;
}
