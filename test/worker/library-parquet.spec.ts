/**
 * The worker's Parquet reading (src/worker/library/parquet-file.ts, through hyparquet) against DuckDB's own reading of files DuckDB
 * wrote: every column type the index uses, nulls, lists (empty, null, with null elements), dictionaries, several
 * row groups, data pages v1 and v2 (DELTA encodings too), uncompressed and Snappy; and what it refuses, in words.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_FLAG } from '../../src/protocol/wire-types';
import { readLibraryParquet } from '../../src/worker/library/parquet';
import { readParquetColumns } from '../../src/worker/library/parquet-file';

const COLUMNS = ['s', 'i', 'b', 'd', 'flag', 'words', 'nums'];

/** 2,500 rows with every kind of value, some null, strings from a small set (dictionary) and unique ones (plain). */
const SOURCE = `SELECT
  CASE WHEN r % 7 = 0 THEN NULL WHEN r % 3 = 0 THEN 'shared' ELSE 'unique-' || r || '-ü€' END AS s,
  CASE WHEN r % 11 = 0 THEN NULL ELSE (r * 37 % 1000 - 500)::INTEGER END AS i,
  (r * 1000000007)::BIGINT AS b,
  CASE WHEN r % 5 = 0 THEN NULL ELSE r / 8.0 END AS d,
  CASE WHEN r % 13 = 0 THEN NULL ELSE r % 2 = 0 END AS flag,
  CASE WHEN r % 9 = 0 THEN NULL WHEN r % 4 = 0 THEN []::VARCHAR[] WHEN r % 6 = 0 THEN ['a', NULL, 'no-op-reference'] ELSE ['x' || r] END AS words,
  CASE WHEN r % 10 = 0 THEN NULL ELSE [r, r + 1, r + 2] END AS nums
FROM range(2500) t(r)`;

let dir = '';
let conn: DuckDBConnection;

async function write(name: string, options: string): Promise<string> {
  const path = join(dir, name);
  await conn.run(`COPY (${SOURCE}) TO '${path}' (FORMAT parquet${options})`);
  return path;
}

async function expected(path: string): Promise<Record<string, unknown>[]> {
  const r = await conn.runAndReadAll(`SELECT ${COLUMNS.join(', ')} FROM read_parquet('${path}')`);
  return r.getRowObjectsJson() as Record<string, unknown>[];
}

/** DuckDB's JSON form of a value (BIGINT as text) next to the reader's. */
const norm = (v: unknown): unknown => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : Array.isArray(v) ? v.map(norm) : v);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'library-parquet-'));
  conn = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => {
  conn.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

describe('the worker’s Parquet reader', () => {
  it.each([
    ['snappy, one row group', ''],
    ['uncompressed, row groups of 300', ', COMPRESSION uncompressed, ROW_GROUP_SIZE 300'],
    ['data pages v2', ', PARQUET_VERSION v2, COMPRESSION snappy'],
  ])('reads every value as DuckDB does (%s)', async (_name, options) => {
    const path = await write(`t-${options.length}.parquet`, options);
    const want = await expected(path);
    const got = await readParquetColumns(new Uint8Array(readFileSync(path)), COLUMNS);
    expect(got.rows).toBe(2500);
    for (const c of COLUMNS) {
      const col = got.columns.get(c)!;
      expect(col.length, c).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(col[i], `${c}[${i}]`).toEqual(norm(want[i]![c]));
    }
  });

  it('leaves out the columns it was not asked for, and those the file lacks', async () => {
    const path = await write('few.parquet', '');
    const got = await readParquetColumns(new Uint8Array(readFileSync(path)), ['s', 'missing']);
    expect([...got.columns.keys()]).toEqual(['s']);
  });

  it('refuses what it cannot read, saying what', async () => {
    const zstd = await write('zstd.parquet', ', COMPRESSION zstd');
    await expect(readParquetColumns(new Uint8Array(readFileSync(zstd)), ['s'])).rejects.toThrow(/compressed with ZSTD, which the app does not read/);
    await expect(readParquetColumns(new TextEncoder().encode('[{"a": 1}]'), ['s'])).rejects.toThrow(/not a Parquet file/);
    const bytes = new Uint8Array(readFileSync(await write('cut.parquet', '')));
    await expect(readParquetColumns(bytes.subarray(0, bytes.length - 9), ['s'])).rejects.toThrow(/not a Parquet file/);
  });
});

describe('a library read from an index’s columns', () => {
  it('keeps each run and task once and every row’s values and flags', async () => {
    const path = join(dir, 'runs.parquet');
    await conn.run(`COPY (SELECT * FROM (VALUES
      ('a.json', 0, 'tau-bench', 'airline', '3', 0, 1.0, 1.0, true, 'h1', NULL, NULL, 'stop', []::VARCHAR[], NULL),
      ('a.json', 1, 'tau-bench', 'airline', '3', 1, 1.0, NULL, NULL, 'h1', NULL, NULL, 'error', []::VARCHAR[], 'boom'),
      ('b/results.json', 0, 'tau2', 'telecom', '[x]', NULL, 0.0, 1.0, false, 'h2', 'gpt', 'user', 'infrastructure_error', ['no-op-reference'], NULL)
    ) v(file, "index", benchmark, domain, task_id, trial, recorded_reward, reward, matches_recorded_reward, content_hash, model, user_model, termination, finding_kinds, error))
    TO '${path}' (FORMAT parquet)`);
    const t = await readLibraryParquet(new Uint8Array(readFileSync(path)));
    expect(t.runs.map((r) => [r.file, r.benchmark, r.domain, r.model, r.userModel, r.contentHash])).toEqual([
      ['a.json', 'tau-bench', 'airline', null, null, 'h1'],
      ['b/results.json', 'tau2', 'telecom', 'gpt', 'user', 'h2'],
    ]);
    expect(t.tasks).toEqual(['3', '[x]']);
    expect([...t.run]).toEqual([0, 0, 1]);
    expect([...t.trial]).toEqual([0, 1, -1]);
    expect([...t.reward]).toEqual([1, NaN, 1]);
    expect([...t.flags]).toEqual([0, LIBRARY_FLAG.error, LIBRARY_FLAG.disagree | LIBRARY_FLAG.infrastructure | LIBRARY_FLAG.noopReference]);
    // An index written before the num_trials column: no run has one (the leaderboard says what that changes).
    expect(t.runs.map((r) => 'numTrials' in r)).toEqual([false, false]);
  });

  it('gives each run the num_trials of its rows when the index has the column (null where the file records none)', async () => {
    const path = join(dir, 'runs-trials.parquet');
    await conn.run(`COPY (SELECT * FROM (VALUES
      ('a.json', 0, 'tau-bench', 'airline', '3', 0, 1.0, 1.0, 'h1', NULL, NULL::INTEGER),
      ('t.json', 0, 'tau2', 'airline', '7', 0, 1.0, 1.0, 'h2', NULL, 4),
      ('t.json', 1, 'tau2', 'airline', '7', 1, 0.0, 0.0, 'h2', NULL, 4)
    ) v(file, "index", benchmark, domain, task_id, trial, recorded_reward, reward, content_hash, error, num_trials))
    TO '${path}' (FORMAT parquet)`);
    const t = await readLibraryParquet(new Uint8Array(readFileSync(path)));
    expect(t.runs.map((r) => [r.file, r.numTrials])).toEqual([
      ['a.json', null],
      ['t.json', 4],
    ]);
  });

  it('refuses a Parquet file without the index’s columns', async () => {
    const path = await write('other.parquet', '');
    await expect(readLibraryParquet(new Uint8Array(readFileSync(path)))).rejects.toThrow(/lacks the columns file, index, benchmark.*tau-inspect index/);
  });
});
