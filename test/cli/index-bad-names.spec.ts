/**
 * `index` and the files it cannot read (issue #35 classes 6 and 9): a name that is not valid UTF-8, a
 * symbolic link that leads nowhere and a folder named like a simulation file never stop the run; each is
 * listed as a bad file, named, with the reason in words. The good files beside them are indexed.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBundle, jsonLines } from '../support/cli-bundle';
import { claimRows, smallIndex } from '../support/parquet-forge';
import { indexCli } from '../support/runs-index';

const root = resolve(import.meta.dirname, '../..');
const sample = join(root, 'sample-runs/runs/tau2-mock-sample.json');
const data = `tau2=${join(root, 'sample-runs/tau2-data')}`;

let bundle = '';
let dir = '';
beforeAll(async () => {
  bundle = await cliBundle();
  dir = mkdtempSync(join(tmpdir(), 'index-bad-names-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', cwd: root, env: { ...process.env, TAU_BENCH_DATA: '', TAU2_DATA: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** A folder of runs: one good file and the given hostile entries. */
function runsFolder(name: string, make: (runs: string) => void): string {
  const runs = join(dir, name);
  mkdirSync(runs);
  copyFileSync(sample, join(runs, 'good.json'));
  make(runs);
  return runs;
}

interface Bad {
  file: string;
  content_hash: string;
  reason: string;
}

/** How the index beside `runs` names a file in it: from the index's folder. */
const named = (runs: string, ...parts: string[]): string => relative(dirname(runs), join(runs, ...parts));

function index(runs: string): { code: number | null; err: string; rows: { file: string }[]; bad: Bad[] } {
  const out = join(runs, '..', `${runs.split('/').pop()}.jsonl`);
  const r = cli('index', runs, '-o', out, '--json', '--data', data, '--jobs', '1');
  const errors = out.replace(/\.jsonl$/, '.errors.jsonl');
  const read = (p: string): string => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return '';
    }
  };
  const text = read(out);
  const bad = read(errors);
  return { code: r.code, err: r.err, rows: text.trim() ? jsonLines(text) : [], bad: bad.trim() ? jsonLines(bad) : [] };
}

describe('index never stops on a file it cannot read', () => {
  it('a file name that is not valid UTF-8 is a bad file, shown with \\xFF, and the rest is indexed', () => {
    const runs = runsFolder('not-utf8', (r) => {
      writeFileSync(Buffer.concat([Buffer.from(`${r}/bad`), Buffer.from([0xff]), Buffer.from('.json')]), readFileSync(sample));
      mkdirSync(Buffer.concat([Buffer.from(`${r}/dir`), Buffer.from([0xc3, 0x28])]));
    });
    const r = index(runs);
    expect(r.err).not.toMatch(/ENOENT/);
    expect(r.code).toBe(0);
    expect(new Set(r.rows.map((x) => x.file))).toEqual(new Set([named(runs, 'good.json')]));
    expect(r.rows).toHaveLength(9);
    expect(r.bad.map((b) => [b.file, b.reason])).toEqual([
      [named(runs, 'bad\\xFF.json'), expect.stringMatching(/^the file name is not valid UTF-8 .*rename it to index it$/)],
      [named(runs, 'dir\\xC3('), expect.stringMatching(/^the folder name is not valid UTF-8 .*not walked/)],
    ]);
    expect(r.err).toContain(`bad file: ${join(runs, 'bad\\xFF.json')}: the file name is not valid UTF-8`);
    // The bad file's bytes are hashed: indexing again skips it as already listed.
    expect(r.bad[0]!.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const again = index(runs);
    expect(again.err).toMatch(/skipped 3 already indexed; 0 bad/);
  });

  it('a symbolic link that leads nowhere is named, with its target', () => {
    const runs = runsFolder('dangling', (r) => symlinkSync(join(r, 'gone.json'), join(r, 'link.json')));
    const r = index(runs);
    expect(r.code).toBe(0);
    expect(r.rows).toHaveLength(9);
    expect(r.bad.map((b) => [b.file, b.reason])).toEqual([[named(runs, 'link.json'), `a symbolic link to ${join(runs, 'gone.json')} that leads to no file`]]);
  });

  it('a folder named sub.json in a run folder’s simulations/ is named with its path (not EISDIR)', () => {
    const runs = runsFolder('sub-json', (r) => {
      const run = JSON.parse(readFileSync(sample, 'utf8')) as { simulations: unknown[] };
      const sims = run.simulations;
      mkdirSync(join(r, 'folder', 'simulations', 'sub.json'), { recursive: true });
      writeFileSync(join(r, 'folder', 'results.json'), JSON.stringify({ ...run, simulations: undefined }));
      sims.slice(0, 2).forEach((s, i) => writeFileSync(join(r, 'folder', 'simulations', `s${i}.json`), JSON.stringify(s)));
    });
    const r = index(runs);
    expect(r.code).toBe(0);
    expect(r.err).not.toMatch(/EISDIR/);
    expect(r.rows).toHaveLength(9);
    const where = join(runs, 'folder', 'simulations', 'sub.json');
    expect(r.bad.map((b) => [b.file, b.reason])).toEqual([
      [named(runs, 'folder'), `${where} is a folder, not a simulation file (simulations/ holds one <id>.json file per simulation)`],
    ]);
    const ev = cli('evaluate', join(runs, 'folder'), '--data', join(root, 'sample-runs/tau2-data'));
    expect(ev.code).toBe(1);
    expect(ev.err).toContain(`${where} is a folder, not a simulation file`);
  });
});

describe('index -o onto a file that is not an index says what is wrong with it, in words', () => {
  const attempt = (name: string) => cli('index', sample, '-o', join(dir, name), '--json', '--data', data, '--jobs', '1');
  // Parquet through DuckDB: the CLI from its source, beside node_modules (the bundle in the cache folder does not reach the package).
  const attemptParquet = (name: string) => indexCli(dir, sample, '-o', join(dir, name), '--data', data, '--jobs', '1');

  it('an unrelated Parquet file: which columns it lacks (not DuckDB’s "Binder Error"), exit 2, the file untouched', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const c = await (await DuckDBInstance.create(':memory:')).connect();
    const other = join(dir, 'other.parquet');
    await c.run(`COPY (SELECT 1 AS x, 'a' AS y) TO '${other}' (FORMAT parquet)`);
    c.closeSync();
    const before = readFileSync(other);
    const r = await attemptParquet('other.parquet');
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/Binder Error|usage:/);
    expect(r.err).toContain(
      `${other} is a Parquet file but not one tau-inspect index wrote: it has no 'file', 'content_hash', 'benchmark' columns (its columns: x, y). -o names the index to add to`,
    );
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it('a file that is not Parquet, a Parquet file cut short, a JSON-lines file that is not an index', async () => {
    writeFileSync(join(dir, 'text.parquet'), 'hello, this is not parquet');
    expect((await attemptParquet('text.parquet')).err).toContain('text.parquet is not a Parquet file (a Parquet file begins and ends with PAR1)');
    writeFileSync(join(dir, 'cut.parquet'), Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(40), Buffer.from('PAR1')]));
    const cut = await attemptParquet('cut.parquet');
    expect(cut.code).toBe(2);
    expect(cut.err).toContain('cut.parquet: its Parquet footer is damaged (it ends inside a value)');
    writeFileSync(join(dir, 'text.jsonl'), '{"file": "a", "content_hash": "b", "benchmark": "tau2"}\nhello\n');
    expect(attempt('text.jsonl').err).toMatch(/text\.jsonl, line 2: not JSON \(.*\): not a JSON-lines file tau-inspect index wrote/);
    writeFileSync(join(dir, 'other.jsonl'), '{"a": 1}\n');
    expect(attempt('other.jsonl').err).toContain("other.jsonl, line 1: it has no 'file', 'content_hash', 'benchmark' columns");
  });
});

describe('index -o onto a forged Parquet index: refused by what is in it, before DuckDB reads it', () => {
  it('footer alone, footer and row group claiming 10^8 rows, 2^31 rows: one sentence each, exit 2, never "Out of buffer"', async () => {
    const real = await smallIndex(dir);
    const cases: [string, { footer?: bigint; groups?: bigint }, string][] = [
      ['footer.parquet', { footer: 100_000_000n }, 'its footer claims 100,000,000 rows, but its row groups hold 9'],
      ['both.parquet', { footer: 100_000_000n, groups: 100_000_000n }, 'it claims 100,000,000 rows, more than the 10,000,000 tau-inspect reads from one file'],
      ['2e31.parquet', { footer: 2n ** 31n, groups: 2n ** 31n }, 'it claims 2,147,483,648 rows, more than the 10,000,000 tau-inspect reads from one file'],
      ['near.parquet', { footer: 300n, groups: 300n }, 'column file of row group 1: its row group claims 300 rows, but its pages hold 9 rows'],
    ];
    for (const [name, claims, why] of cases) {
      const path = join(dir, name);
      writeFileSync(path, claimRows(real, claims));
      const r = await indexCli(dir, sample, '-o', path, '--data', data, '--jobs', '1');
      expect(r.code, name).toBe(2);
      expect(r.err, name).toContain(`${path}: ${why}. -o names the index to add to`);
      expect(r.err, name).not.toMatch(/Out of buffer|Invalid Error/);
    }
  });
});
