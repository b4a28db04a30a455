/**
 * `tau-inspect index` over a library of shared runs, read back with DuckDB, as a function of the library: every
 * episode once, recomputed rewards equal to the expected records, bad files listed with reasons, a second run
 * skipping every file, and two shards that together hold exactly the whole index. The gate (index-runs.spec.ts)
 * checks a library of a few shared runs, the soak (test/soak/index-runs.spec.ts) every shared run; the same
 * assertions. `min`: what the library holds at least (a check over nothing proves nothing).
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, expect, it } from 'vitest';
import { INDEX_DATA, INDEXED_DIRS, indexCli, type IndexOutcome, type SharedRunsIndex } from '../support/runs-index';
import { describeShared, SHARED_DIR, TAU2_DIR } from '../support/shared';

export interface Row {
  file: string;
  index: number;
  benchmark: string;
  domain: string | null;
  task_id: string | null;
  trial: number | null;
  recorded_reward: number | null;
  reward: number | null;
  content_hash: string;
  data_version: string | null;
  rule: string | null;
  model: string | null;
  user_model: string | null;
  failed_components: string[];
  termination: string | null;
  finding_kinds: string[];
  steps: number | null;
  error: string | null;
  num_trials: number | null;
}

export async function readRows(file: string): Promise<Row[]> {
  const c = await (await DuckDBInstance.create(':memory:')).connect();
  const r = await c.runAndReadAll(`SELECT * FROM read_parquet('${file.replace(/'/g, "''")}') ORDER BY file, "index"`);
  c.closeSync();
  return r.getRowObjectsJson() as unknown as Row[];
}

export const jsonLines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** How many episodes (τ-bench: list entries) or simulations (τ²) a results file holds, read as plain JSON. */
function episodesIn(path: string): number {
  const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return Array.isArray(v) ? v.length : (v as { simulations: unknown[] }).simulations.length;
}

export interface IndexMinimums {
  /** Results files indexed (bad ones left out). */
  readonly files: number;
  /** τ-bench episodes. */
  readonly episodes: number;
  /** τ² simulations. */
  readonly simulations: number;
  /** Failed episodes and simulations. */
  readonly failed: number;
}

export function indexCases(name: string, index: () => Promise<SharedRunsIndex>, min: IndexMinimums): void {
  describeShared(name, () => {
    let lib = '';
    let dir = '';
    let whole: Row[] = [];
    let first: IndexOutcome = { code: null, err: '' };
    let again: IndexOutcome = { code: null, err: '' };
    let shards: Row[][] = [];
    let shardRuns: readonly IndexOutcome[] = [];

    // The shards first; then the whole index starts from shard 1's output (its files are skipped, shard 2's
    // are indexed and merged in), so the files are judged one and a half times, not twice, and resuming is tested.
    // Then a second run over the whole index (a copy of it, in this spec's own folder).
    beforeAll(async () => {
      expect(existsSync(join(TAU2_DIR, 'expected')), `${TAU2_DIR}/expected is missing`).toBe(true);
      const made = await index();
      ({ lib, shardRuns, first } = made);
      // Each shard names its files from its own folder (shards/): read from lib, as the whole index names them.
      const fromLib =
        (shard: string) =>
        (r: Row): Row => ({
          ...r,
          file: relative(lib, resolve(dirname(shard), r.file))
            .split(sep)
            .join('/'),
        });
      shards = [(await readRows(made.shards[0])).map(fromLib(made.shards[0])), (await readRows(made.shards[1])).map(fromLib(made.shards[1]))];
      whole = await readRows(join(lib, 'runs.parquet'));
      dir = mkdtempSync(join(tmpdir(), 'tau-index-'));
      copyFileSync(join(lib, 'runs.parquet'), join(dir, 'runs.parquet'));
      if (existsSync(join(lib, 'runs.errors.jsonl'))) copyFileSync(join(lib, 'runs.errors.jsonl'), join(dir, 'runs.errors.jsonl'));
      again = await indexCli(lib, ...INDEXED_DIRS, ...INDEX_DATA(), '-o', join(dir, 'runs.parquet'));
      return () => rmSync(dir, { recursive: true, force: true });
    }, 900_000);

    it('exits 0 and names what it did: shard 1’s files skipped, the rest indexed', () => {
      expect(first.code, first.err).toBe(0);
      const shard1 = /shard 1\/2: (\d+) of (\d+) files/.exec(shardRuns[0]!.err);
      expect(shard1, shardRuns[0]!.err).not.toBeNull();
      expect(first.err).toContain(`skipped ${shard1![1]} already indexed`);
      expect(first.err).toMatch(/indexed \d+ files \(\d+ episodes\)/);
    });

    const byFile = (rows: Row[]): Map<string, Row[]> => {
      const m = new Map<string, Row[]>();
      for (const r of rows) m.set(r.file, [...(m.get(r.file) ?? []), r]);
      return m;
    };

    it('holds every episode of every results file once, in file order', () => {
      const files = byFile(whole);
      const bad = new Set(jsonLines(join(lib, 'runs.errors.jsonl')).map((b) => b.file));
      let checked = 0;
      for (const d of INDEXED_DIRS)
        for (const name of readdirSync(join(lib, d)).filter((n) => n.endsWith('.json'))) {
          const path = join(d, name);
          if (bad.has(path)) continue;
          const rows = files.get(path) ?? [];
          expect(
            rows.map((r) => r.index),
            path,
          ).toEqual(Array.from({ length: episodesIn(join(lib, path)) }, (_, i) => i));
          checked++;
        }
      expect(checked).toBe(files.size);
      expect(checked).toBeGreaterThanOrEqual(min.files);
    });

    it('recomputes τ-bench’s rewards as ../shared/expected records them', () => {
      const files = byFile(whole);
      const off: string[] = [];
      let n = 0;
      for (const name of readdirSync(join(lib, 'runs')).filter((f) => f.endsWith('.json'))) {
        const expected = JSON.parse(readFileSync(join(SHARED_DIR, 'expected', name.replace(/\.json$/, '.expected.json')), 'utf8')) as {
          recorded_reward: number;
          reward?: number;
          skipped?: string;
          task_id: number;
        }[];
        const rows = files.get(join('runs', name)) ?? [];
        expect(rows.length, name).toBe(expected.length);
        expected.forEach((x, i) => {
          const r = rows[i]!;
          n++;
          const want = x.skipped !== undefined ? null : x.reward;
          if (r.reward !== want || r.task_id !== String(x.task_id) || r.recorded_reward !== x.recorded_reward || r.benchmark !== 'tau-bench')
            off.push(`${name} #${i}: ${r.reward} ≠ ${want}`);
          if ((x.skipped !== undefined) !== (r.error !== null)) off.push(`${name} #${i}: error ${r.error}`);
        });
      }
      expect(off.slice(0, 5), `${off.length} of ${n} differ`).toEqual([]);
      expect(n).toBeGreaterThan(min.episodes);
    });

    it('recomputes τ²’s rewards as ../shared/tau2/expected records them', () => {
      const files = byFile(whole);
      const off: string[] = [];
      let n = 0;
      for (const name of readdirSync(join(TAU2_DIR, 'expected')).filter((x) => existsSync(join(lib, 'tau2/runs', x.replace(/\.expected\.json$/, '.json'))))) {
        const expected = JSON.parse(readFileSync(join(TAU2_DIR, 'expected', name), 'utf8')) as { simulations: { reward: number; task_id: string }[] };
        const rows = files.get(join('tau2/runs', name.replace(/\.expected\.json$/, '.json'))) ?? [];
        expect(rows.length, name).toBe(expected.simulations.length);
        expected.simulations.forEach((x, i) => {
          const r = rows[i]!;
          n++;
          if (r.reward !== x.reward || r.task_id !== x.task_id || r.benchmark !== 'tau2' || r.rule === null)
            off.push(`${name} #${i}: ${r.reward} ≠ ${x.reward}`);
        });
        expect(rows.every((r) => r.model !== null && r.user_model !== null)).toBe(true);
      }
      expect(off.slice(0, 5), `${off.length} of ${n} differ`).toEqual([]);
      expect(n).toBeGreaterThan(min.simulations);
    });

    it('fills the descriptive columns: a failed episode names its components, findings are kinds, steps counted', () => {
      const failed = whole.filter((r) => r.error === null && r.reward === 0 && r.termination !== 'error');
      expect(failed.length).toBeGreaterThan(min.failed);
      expect(failed.filter((r) => r.benchmark === 'tau-bench').every((r) => r.failed_components.length > 0 || r.termination === 'not_done')).toBe(true);
      expect(whole.filter((r) => r.reward === 1).every((r) => r.failed_components.length === 0)).toBe(true);
      expect(new Set(whole.map((r) => r.benchmark))).toEqual(new Set(['tau-bench', 'tau2']));
      expect(whole.some((r) => r.finding_kinds.length > 0)).toBe(true);
      expect(whole.every((r) => r.error !== null || (r.steps !== null && r.steps >= 0 && /^[0-9a-f]{64}$/.test(r.content_hash)))).toBe(true);
    });

    it('gives every τ² row its file’s info.num_trials, and τ-bench rows none', () => {
      const trials = new Map<string, unknown>();
      const tau2 = whole.filter((r) => r.benchmark === 'tau2');
      for (const r of tau2)
        if (!trials.has(r.file))
          trials.set(r.file, (JSON.parse(readFileSync(join(lib, r.file), 'utf8')) as { info: { num_trials?: unknown } }).info.num_trials ?? null);
      expect(tau2.length).toBeGreaterThan(min.simulations);
      expect(tau2.filter((r) => r.num_trials !== trials.get(r.file))).toEqual([]);
      expect(whole.filter((r) => r.benchmark === 'tau-bench' && r.num_trials !== null)).toEqual([]);
    });

    it('lists the bad files with their reasons and leaves them out of the table', () => {
      const bad = jsonLines(join(lib, 'runs.errors.jsonl'));
      expect(bad.map((b) => basename(String(b.file)))).toContain('sources.json');
      for (const b of bad) {
        expect(String(b.reason).length, String(b.file)).toBeGreaterThan(10);
        expect([first, ...shardRuns].map((r) => r.err).join('')).toContain(`bad file: ${String(b.file)}: `);
      }
      expect(whole.some((r) => bad.some((b) => b.file === r.file))).toBe(false);
    });

    it('a second run into a copy elsewhere skips every file and leaves the table as it was, each file named from the copy’s folder', async () => {
      expect(again.code, again.err).toBe(0);
      const files = new Set(whole.map((r) => r.file)).size + jsonLines(join(dir, 'runs.errors.jsonl')).length;
      expect(again.err).toContain(`indexed 0 files (0 episodes)`);
      expect(again.err).toContain(`skipped ${files} already indexed`);
      const moved = (file: string): string => relative(dir, join(lib, file)).split(sep).join('/');
      expect(await readRows(join(dir, 'runs.parquet'))).toEqual(whole.map((r) => ({ ...r, file: moved(r.file) })));
      expect(jsonLines(join(dir, 'runs.errors.jsonl')).map((b) => b.file)).toEqual(jsonLines(join(lib, 'runs.errors.jsonl')).map((b) => moved(String(b.file))));
    });

    it('--shard 1/2 and 2/2 together hold exactly the rows of the whole index, no file in both', () => {
      const [a, b] = shards as [Row[], Row[]];
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBeGreaterThan(0);
      const inA = new Set(a.map((r) => r.file));
      expect(b.filter((r) => inA.has(r.file))).toEqual([]);
      const key = (r: Row) => `${r.file}\0${r.index}`;
      const union = [...a, ...b].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
      const all = [...whole].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
      expect(union).toEqual(all);
    });
  });
}
