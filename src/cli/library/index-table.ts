/**
 * The index's table on disk: Parquet through DuckDB, or JSON lines; what is already in it (for resuming);
 * the bad files beside it. Every file is written to a temporary name beside the target and renamed.
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { inertJson } from '../../core/contract';
import { INDEX_COLUMNS, type IndexRow } from './index-row';

/** A file that yields no rows, and why. */
export interface BadFile {
  readonly file: string;
  readonly content_hash: string;
  readonly reason: string;
}

/** `file` + NUL + `content_hash`: how a file already indexed is recognised. */
export const fileKey = (file: string, hash: string): string => `${file}\0${hash}`;

const sqlText = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const tempBeside = (path: string, suffix: string): string => `${path}.tmp-${process.pid}${suffix}`;

async function* jsonLines(path: string): AsyncGenerator<Record<string, unknown>> {
  if (!existsSync(path)) return;
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity }))
    if (line.trim() !== '') yield JSON.parse(line) as Record<string, unknown>;
}

/**
 * DuckDB's Node API, loaded when a Parquet file is read or written. The name is not a literal so that
 * bundlers leave the import to run time (the package loads a native binding per platform): the bundled
 * CLI finds it in the node_modules beside it, and only `index` needs it.
 */
const DUCKDB: string = '@duckdb/node-api';

async function duck() {
  const { DuckDBInstance } = (await import(DUCKDB)) as typeof import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  return instance.connect();
}

type Duck = Awaited<ReturnType<typeof duck>>;

/** The columns an existing Parquet output has (an older index may lack some of `INDEX_COLUMNS`). */
async function parquetColumns(c: Duck, out: string): Promise<Set<string>> {
  const res = await c.runAndReadAll(`SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet(${sqlText(out)}))`);
  return new Set(res.getRows().map(([name]) => String(name)));
}

/**
 * The `file`/`content_hash` pairs of an existing output (empty when there is none). A τ² file of an output written
 * before the `num_trials` column is not counted: it is indexed again, so its rows get their run's num_trials.
 */
export async function indexedKeys(out: string, json: boolean): Promise<Set<string>> {
  const keys = new Set<string>();
  if (!existsSync(out)) return keys;
  const kept = (benchmark: unknown, hasTrials: boolean): boolean => hasTrials || benchmark !== 'tau2';
  if (json) {
    for await (const r of jsonLines(out)) if (kept(r.benchmark, 'num_trials' in r)) keys.add(fileKey(String(r.file), String(r.content_hash)));
    return keys;
  }
  const c = await duck();
  try {
    const hasTrials = (await parquetColumns(c, out)).has('num_trials');
    const res = await c.runAndReadAll(`SELECT DISTINCT file, content_hash, benchmark FROM read_parquet(${sqlText(out)})`);
    for (const [file, hash, benchmark] of res.getRows()) if (kept(benchmark, hasTrials)) keys.add(fileKey(String(file), String(hash)));
  } finally {
    c.closeSync();
  }
  return keys;
}

/** The bad files listed beside an earlier output. */
export async function readBadFiles(path: string): Promise<BadFile[]> {
  const out: BadFile[] = [];
  for await (const r of jsonLines(path)) out.push({ file: String(r.file), content_hash: String(r.content_hash), reason: String(r.reason) });
  return out;
}

export async function writeBadFiles(path: string, bad: readonly BadFile[]): Promise<void> {
  const tmp = tempBeside(path, '.jsonl');
  await mkdir(dirname(path), { recursive: true });
  await writeFile(tmp, bad.map((b) => inertJson(b) + '\n').join(''));
  await rename(tmp, path);
}

const rowLine = (r: IndexRow): string => inertJson(Object.fromEntries(INDEX_COLUMNS.map(([k]) => [k, r[k]]))) + '\n';

/**
 * Writes the table: the earlier output's rows, less those of `replaced` files (indexed again), then `rows`.
 * `-` (JSON lines only) writes `rows` to standard output.
 */
export async function writeIndex(out: string, json: boolean, rows: readonly IndexRow[], replaced: ReadonlySet<string>): Promise<void> {
  if (out === '-') {
    for (const r of rows) process.stdout.write(rowLine(r));
    return;
  }
  const lines = rows.map(rowLine);
  await mkdir(dirname(out), { recursive: true });
  if (json) {
    const kept: string[] = [];
    for await (const r of jsonLines(out)) if (!replaced.has(String(r.file))) kept.push(inertJson(r) + '\n');
    const tmp = tempBeside(out, '.jsonl');
    await writeFile(tmp, kept.join('') + lines.join(''));
    await rename(tmp, out);
    return;
  }
  const fresh = tempBeside(out, '.rows.jsonl');
  const tmp = tempBeside(out, '.parquet');
  await writeFile(fresh, lines.join(''));
  const names = INDEX_COLUMNS.map(([k]) => `"${k}"`).join(', ');
  const columns = INDEX_COLUMNS.map(([k, t]) => `${sqlText(k)}: ${sqlText(t)}`).join(', ');
  const parts = [`SELECT ${names} FROM read_json(${sqlText(fresh)}, format = 'newline_delimited', columns = {${columns}})`];
  const c = await duck();
  try {
    if (existsSync(out)) {
      const gone = [...replaced].map(sqlText).join(', ');
      // An output of an older index lacks the newer columns (num_trials): its rows kept get NULL there.
      const has = await parquetColumns(c, out);
      const old = INDEX_COLUMNS.map(([k, t]) => (has.has(k) ? `"${k}"` : `NULL::${t} AS "${k}"`)).join(', ');
      parts.unshift(`SELECT ${old} FROM read_parquet(${sqlText(out)})${replaced.size > 0 ? ` WHERE file NOT IN (${gone})` : ''}`);
    }
    await c.run(`COPY (${parts.join(' UNION ALL ')} ORDER BY file, "index") TO ${sqlText(tmp)} (FORMAT parquet)`);
    await rename(tmp, out);
  } finally {
    c.closeSync();
    await rm(fresh, { force: true });
    await rm(tmp, { force: true });
  }
}
