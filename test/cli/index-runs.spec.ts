/**
 * `tau-inspect index` over copies of shared runs (indexed from the folder holding them, so rows name `runs/…`,
 * `tau2/runs/…`, `forks/…`), read back with DuckDB (runs-index.cases.ts: every episode once, recomputed rewards
 * equal to the expected records, bad files listed with reasons, a second run skipping every file, two shards that
 * together hold exactly the whole index), here on a library of a few shared runs; the index of every shared run
 * (test/support/runs-index.ts, also read by test/browser/library.spec.ts) is checked by test/soak/index-runs.spec.ts.
 * And the library's τ² pass^k beside each run's own overview.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, expect, it } from 'vitest';
import { readTau2Text, tau2NumTrials, tau2Rows, Tau2Session, tau2Summary } from '../../src/core/contract';
import { leaderboard, NO_LIBRARY_FILTERS, NO_NUM_TRIALS } from '../../src/core/contract';
import { tau2Pass } from '../../src/store/tau2/compare';
import { readLibraryParquet } from '../../src/worker/library/parquet';
import { indexCli, runsIndex } from '../support/runs-index';
import { describeShared, TAU2_DIR } from '../support/shared';
import { tau2Read } from '../support/tau2';
import { indexCases, readRows } from './runs-index.cases';

// Every shared run is in the soak (test/soak/index-runs.spec.ts); a library of a few here: a τ-bench run of each
// domain, τ² runs of two domains and τ²'s sources.json (a bad file), a fork of each benchmark.
indexCases(
  'tau-inspect index over a library of shared runs',
  () =>
    runsIndex('runs-index-gate', {
      runs: ['grok-4-fast-act-airline.json', 'qwen3-8b-react-retail.json'],
      tau2: ['sierra-research__gym-gpt-4.1-retail.json', 'sierra-research__pr171-ironforge-v3-deepseek-airline.json', 'sources.json'],
      forks: ['madhav-kanda-test-results-trial-1.json', 'tau2-airline-grok3mini.json'],
    }),
  { files: 5, episodes: 50, simulations: 40, failed: 10 },
);

interface Tau2File {
  info: Record<string, unknown>;
  tasks: { id: string }[];
  simulations: { id: string; task_id: string; trial: number }[];
}

/**
 * τ² airline runs with several trials, made of ../shared/tau2's airline simulations (no shared τ² file has more than one
 * trial; the one with 4 in ../shared/forks is of a fork's domain, which is not judged): the first 6 tasks that 4 airline
 * files ran, 4 simulations each as trials 0–3, and a 5th of the first task (each task's pass^k is over its own trials).
 * `four` records info.num_trials 4; `three` the same simulations with num_trials 3, where τ² stops at k = 3.
 */
function severalTrials(dir: string): { four: string; three: string } {
  const sources = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', 'sources.json'), 'utf8')) as { file: string; domain: string }[];
  const runs = sources.filter((s) => s.domain === 'airline').map((s) => JSON.parse(readFileSync(join(TAU2_DIR, 'runs', s.file), 'utf8')) as Tau2File);
  const byTask = new Map<string, Tau2File['simulations']>();
  for (const r of runs) for (const sim of r.simulations) byTask.set(sim.task_id, [...(byTask.get(sim.task_id) ?? []), sim]);
  const chosen = [...byTask].filter(([, sims]) => sims.length >= 5).slice(0, 6);
  expect(chosen).toHaveLength(6);
  const simulations = chosen.flatMap(([task, sims], t) =>
    sims.slice(0, t === 0 ? 5 : 4).map((sim, trial) => ({ ...sim, id: `${task}-trial-${trial}`, trial })),
  );
  const tasks = new Map<string, unknown>();
  for (const r of runs) for (const t of r.tasks) if (!tasks.has(t.id) && byTask.has(t.id)) tasks.set(t.id, t);
  const write = (name: string, numTrials: number): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ ...runs[0]!, info: { ...runs[0]!.info, num_trials: numTrials }, tasks: [...tasks.values()], simulations }));
    return path;
  };
  return { four: write('airline-4-trials.json', 4), three: write('airline-num-trials-3.json', 3) };
}

describeShared('the library’s τ² pass^k beside each run’s own overview', () => {
  let dir = '';
  let files = { four: '', three: '' };
  let indexed = { code: null as number | null, err: '' };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tau2-trials-'));
    mkdirSync(join(dir, 'runs'));
    files = severalTrials(join(dir, 'runs'));
    indexed = await indexCli(dir, join(dir, 'runs'), '--data', join(TAU2_DIR, 'data'), '--jobs', '1', '-o', join(dir, 'runs.parquet'));
    return () => rmSync(dir, { recursive: true, force: true });
  }, 600_000);

  /** pass^k as the run's own overview computes it (src/features/overview/run-summary.tsx), recorded and recomputed. */
  async function overview(path: string) {
    const run = readTau2Text(readFileSync(path, 'utf8'))!;
    const session = await Tau2Session.open(run, tau2Read);
    const summaries = run.simulations.map((_, i) => tau2Summary(session.report(i)));
    return tau2Pass(tau2Rows(run), summaries, tau2NumTrials(run));
  }

  it('gives pass^1…pass^k equal to the overview’s for a run of 4 trials, and stops where τ² does when num_trials is fewer', async () => {
    expect(indexed.code, indexed.err).toBe(0);
    const board = leaderboard(await readLibraryParquet(new Uint8Array(readFileSync(join(dir, 'runs.parquet')))), NO_LIBRARY_FILTERS);
    // The index names each file from its own folder.
    const byFile = new Map(board.map((r) => [join(dir, r.info.file), r]));
    for (const [path, k] of [
      [files.four, 4],
      [files.three, 3],
    ] as const) {
      const row = byFile.get(path)!;
      const own = await overview(path);
      expect(
        own.recomputed.map((p) => p.k),
        path,
      ).toEqual(Array.from({ length: k }, (_, i) => i + 1));
      expect(row.recomputed, path).toEqual(own.recomputed);
      expect(row.recorded, path).toEqual(own.recorded);
      expect(row, path).toMatchObject({ tasks: 6, trials: k, trialsNote: null, episodes: 25 });
    }
    // Not a run where every pass^k is 0 or 1: the per-task counts matter.
    expect(byFile.get(files.four)!.recomputed.some((p) => p.value > 0 && p.value < 1)).toBe(true);
  });

  it('reads a runs.parquet written before num_trials as before, saying why; indexing again gives the column back', async () => {
    const old = join(dir, 'old.parquet');
    const c = await (await DuckDBInstance.create(':memory:')).connect();
    await c.run(`COPY (SELECT * EXCLUDE (num_trials) FROM read_parquet('${join(dir, 'runs.parquet')}')) TO '${old}' (FORMAT parquet)`);
    c.closeSync();
    const board = leaderboard(await readLibraryParquet(new Uint8Array(readFileSync(old))), NO_LIBRARY_FILTERS);
    const three = board.find((r) => join(dir, r.info.file) === files.three)!;
    expect(three.recomputed.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    expect(three.trialsNote).toBe(NO_NUM_TRIALS);
    const again = await indexCli(dir, join(dir, 'runs'), '--data', join(TAU2_DIR, 'data'), '--jobs', '1', '-o', old);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain('indexed 2 files (50 episodes)');
    const rows = await readRows(old);
    expect(rows.map((r) => r.num_trials).sort()).toEqual([...new Array(25).fill(3), ...new Array(25).fill(4)]);
  });
});
