/**
 * `tau-inspect index` over the shared runs, made once per test run (test/support/run-once.ts) for the specs
 * that read it: test/browser/library.spec.ts (the library opened in the browser) and test/soak/index-runs.spec.ts
 * (shards, resuming, the table's contents); test/cli/index-runs.spec.ts checks the same on a library of a few
 * shared runs (`runsIndex`). Indexing every shared run is most of either spec's time.
 *
 * Layout, as a user would index a folder of runs from inside it:
 *   lib/runs, lib/tau2/runs, lib/forks   copies of ../shared/runs, ../shared/tau2/runs, ../shared/forks
 *   shards/runs-1.parquet, runs-2.parquet   `index runs tau2/runs forks --shard I/2` (run from lib/)
 *   lib/runs.parquet (+ runs.errors.jsonl)  started from shard 1's output: its files are skipped, shard 2's
 *                                         indexed and merged in (so resuming is exercised, and the runs are
 *                                         judged one and a half times, not twice)
 * Rows name their files relative to lib/ (`runs/gpt-4o-airline.json`).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runOnce } from './run-once';
import { DATA_DIR, SHARED_DIR, TAU2_DIR } from './shared';

const ROOT = resolve(import.meta.dirname, '../..');

/** The indexed folders, relative to `lib`. */
export const INDEXED_DIRS = ['runs', 'tau2/runs', 'forks'] as const;

export interface IndexOutcome {
  readonly code: number | null;
  readonly err: string;
}

export interface SharedRunsIndex {
  /** The library folder: the copied runs, runs.parquet and runs.errors.jsonl. Read-only: copy it to write beside it. */
  readonly lib: string;
  /** `--shard 1/2` and `--shard 2/2`, each to its own file. */
  readonly shards: readonly [string, string];
  readonly shardRuns: readonly [IndexOutcome, IndexOutcome];
  /** The whole index (lib/runs.parquet), started from shard 1's. */
  readonly first: IndexOutcome;
}

/** `tau-inspect index ARGS…` from its TypeScript source (tsx), as `npm run cli` runs it, in `cwd`; with its status and standard error. */
export function indexCli(cwd: string, ...args: string[]): Promise<IndexOutcome> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', join(ROOT, 'node_modules/tsx/dist/esm/index.mjs'), join(ROOT, 'src/cli/tau-inspect.ts'), 'index', ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    p.on('error', fail);
    p.on('close', (code) => done({ code, err }));
  });
}

/** The data options of every index run here: both benchmarks' data, two jobs (the CI machine's cores). */
export const INDEX_DATA = (): string[] => ['--data', DATA_DIR, '--data', join(TAU2_DIR, 'data'), '--jobs', '2'];

const OUTCOMES = 'outcomes.json';

/** Which files of ../shared/runs, ../shared/tau2/runs and ../shared/forks a library holds (names); all of a folder when left out. */
export interface LibraryPick {
  readonly runs?: readonly string[];
  readonly tau2?: readonly string[];
  readonly forks?: readonly string[];
}

/** Copies the folder `from` to `to`, or only the files of it named in `names`. */
function copyPicked(from: string, to: string, names: readonly string[] | undefined): void {
  if (names === undefined) return void cpSync(from, to, { recursive: true });
  mkdirSync(to, { recursive: true });
  for (const n of names) copyFileSync(join(from, n), join(to, n));
}

/** The index over every shared run (the layout above), made once per test run. */
export const sharedRunsIndex = (): Promise<SharedRunsIndex> => runsIndex('runs-index', {});

/**
 * The library the browser specs open (library.spec, a11y.spec): three τ-bench runs and four τ² runs, both
 * benchmarks and three domains, made once per test run. The index over every shared run is the soak's
 * (test/soak/index-runs.spec.ts).
 */
export const LIBRARY_PICK: LibraryPick = {
  runs: ['grok-4-tool-calling-retail.json', 'gpt-4o-airline.json', 'qwen3-8b-react-retail.json'],
  tau2: [
    'sierra-research__pr73-aide-claude-sonnet-4-5-airline.json',
    'sierra-research__pr17-gpt-4o-telecom.json',
    'sierra-research__gym-gpt-4.1-airline.json',
    'sierra-research__pr171-ironforge-v3-deepseek-airline.json',
  ],
  forks: [],
};
export const libraryRunsIndex = (): Promise<SharedRunsIndex> => runsIndex('runs-index-library', LIBRARY_PICK);

/** The index (the layout above) of a library of some shared runs, made once per test run under `key`. */
export async function runsIndex(key: string, pick: LibraryPick): Promise<SharedRunsIndex> {
  const dir = await runOnce(key, async (dir) => {
    const lib = join(dir, 'lib');
    mkdirSync(join(lib, 'tau2'), { recursive: true });
    mkdirSync(join(dir, 'shards'));
    copyPicked(join(SHARED_DIR, 'runs'), join(lib, 'runs'), pick.runs);
    copyPicked(join(TAU2_DIR, 'runs'), join(lib, 'tau2', 'runs'), pick.tau2);
    copyPicked(join(SHARED_DIR, 'forks'), join(lib, 'forks'), pick.forks);
    const shardRuns: IndexOutcome[] = [];
    for (const i of [1, 2]) {
      const r = await indexCli(lib, ...INDEXED_DIRS, ...INDEX_DATA(), '--shard', `${i}/2`, '-o', `../shards/runs-${i}.parquet`);
      if (r.code !== 0) throw new Error(`index --shard ${i}/2 exited ${r.code}:\n${r.err}`);
      shardRuns.push(r);
    }
    copyFileSync(join(dir, 'shards/runs-1.parquet'), join(lib, 'runs.parquet'));
    if (existsSync(join(dir, 'shards/runs-1.errors.jsonl'))) copyFileSync(join(dir, 'shards/runs-1.errors.jsonl'), join(lib, 'runs.errors.jsonl'));
    const first = await indexCli(lib, ...INDEXED_DIRS, ...INDEX_DATA(), '-o', 'runs.parquet');
    writeFileSync(join(dir, OUTCOMES), JSON.stringify({ shardRuns, first }));
  });
  const { shardRuns, first } = JSON.parse(readFileSync(join(dir, OUTCOMES), 'utf8')) as Pick<SharedRunsIndex, 'shardRuns' | 'first'>;
  return { lib: join(dir, 'lib'), shards: [join(dir, 'shards/runs-1.parquet'), join(dir, 'shards/runs-2.parquet')], shardRuns, first };
}
