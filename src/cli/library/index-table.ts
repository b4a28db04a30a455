/**
 * The index's table on disk: Parquet through DuckDB, or JSON lines; what is already in it (for resuming);
 * the bad files beside it. Every file is written to a temporary name beside the target and renamed.
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { inertJson } from '../../core/contract';
import { parquetBoundsProblem } from '../../formats/parquet-bounds';
import { InputFileError } from '../usage';
import { INDEX_COLUMNS, type IndexRow } from '../../core/contract';
import { importModule } from '../dynamic-import';

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

/** The JSON objects of a JSON-lines file (none when there is no file); `at` hears each line's number before it is read. */
async function* jsonLines(path: string, at?: (line: number) => void): AsyncGenerator<Record<string, unknown>> {
  if (!existsSync(path)) return;
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    n++;
    if (line.trim() === '') continue;
    at?.(n);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new InputFileError(`${path}, line ${n}: not JSON (${(e as Error).message}): not a JSON-lines file tau-inspect index wrote`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new InputFileError(`${path}, line ${n}: not a JSON object: not a JSON-lines file tau-inspect index wrote`);
    yield value as Record<string, unknown>;
  }
}

/** The columns by which an index's rows are known (`file` + `content_hash`, and `benchmark` for resuming). */
const KEY_COLUMNS = ['file', 'content_hash', 'benchmark'] as const;
const NOT_INDEX = '. -o names the index to add to: give a new file name, or an index tau-inspect index wrote';
const missingColumns = (missing: readonly string[]): string =>
  `it has no ${missing.map((m) => `'${m}'`).join(', ')} ${missing.length === 1 ? 'column' : 'columns'}`;
const firstLine = (e: unknown): string => String(e instanceof Error ? e.message : e).split(/\\n|\n/)[0]!;

/** Why a file is not Parquet by its first and last 4 bytes (a Parquet file begins and ends with `PAR1`); null when it may be. */
async function parquetMagic(path: string): Promise<string | null> {
  const f = await open(path, 'r');
  try {
    const size = (await f.stat()).size;
    if (size < 12) return `${size} bytes: a Parquet file is at least 12`;
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(4);
    await f.read(head, 0, 4, 0);
    await f.read(tail, 0, 4, size - 4);
    if (head.toString('latin1') !== 'PAR1' || tail.toString('latin1') !== 'PAR1') return 'a Parquet file begins and ends with PAR1';
    return null;
  } finally {
    await f.close();
  }
}

/**
 * DuckDB's Node API, loaded when a Parquet file is read or written. The name is not a literal so that
 * bundlers leave the import to run time (the package loads a native binding per platform): the bundled
 * CLI finds it in the node_modules beside it, and only `index` needs it.
 */
const DUCKDB: string = '@duckdb/node-api';

async function duck() {
  const { DuckDBInstance } = (await importModule(DUCKDB)) as typeof import('@duckdb/node-api');
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
    let line = 0;
    for await (const r of jsonLines(out, (n) => (line = n))) {
      const missing = KEY_COLUMNS.filter((k) => !(k in r));
      if (missing.length > 0) throw new InputFileError(`${out}, line ${line}: ${missingColumns(missing)}${NOT_INDEX}`);
      if (kept(r.benchmark, 'num_trials' in r)) keys.add(fileKey(String(r.file), String(r.content_hash)));
    }
    return keys;
  }
  const magic = await parquetMagic(out);
  if (magic !== null) throw new InputFileError(`${out} is not a Parquet file (${magic})${NOT_INDEX}`);
  // Its row counts and page sizes against its bytes, before DuckDB reads by them.
  const claims = parquetBoundsProblem(new Uint8Array(await readFile(out)));
  if (claims !== null) throw new InputFileError(`${out}: ${claims}${NOT_INDEX}`);
  const c = await duck();
  try {
    let columns: Set<string>;
    try {
      columns = await parquetColumns(c, out);
    } catch (e) {
      throw new InputFileError(`${out} begins and ends as a Parquet file does, but its footer cannot be read (${firstLine(e)})${NOT_INDEX}`);
    }
    const missing = KEY_COLUMNS.filter((k) => !columns.has(k));
    if (missing.length > 0)
      throw new InputFileError(
        `${out} is a Parquet file but not one tau-inspect index wrote: ${missingColumns(missing)} (its columns: ${[...columns].join(', ')})${NOT_INDEX}`,
      );
    const hasTrials = columns.has('num_trials');
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
 * Writes the table: the earlier output's rows, less those of `replaced` files (indexed again), each kept row's `file`
 * renamed by `renames` (an older index's name for it → its name now), then `rows`.
 * `-` (JSON lines only) writes `rows` to standard output.
 */
export async function writeIndex(
  out: string,
  json: boolean,
  rows: readonly IndexRow[],
  replaced: ReadonlySet<string>,
  renames: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  if (out === '-') {
    for (const r of rows) process.stdout.write(rowLine(r));
    return;
  }
  const lines = rows.map(rowLine);
  await mkdir(dirname(out), { recursive: true });
  if (json) {
    const kept: string[] = [];
    for await (const r of jsonLines(out))
      if (!replaced.has(String(r.file))) kept.push(inertJson(renames.has(String(r.file)) ? { ...r, file: renames.get(String(r.file)) } : r) + '\n');
    const tmp = tempBeside(out, '.jsonl');
    await writeFile(tmp, kept.join('') + lines.join(''));
    await rename(tmp, out);
    return;
  }
  const fresh = tempBeside(out, '.rows.jsonl');
  const tmp = tempBeside(out, '.parquet');
  const names = INDEX_COLUMNS.map(([k]) => `"${k}"`).join(', ');
  const columns = INDEX_COLUMNS.map(([k, t]) => `${sqlText(k)}: ${sqlText(t)}`).join(', ');
  const parts = [`SELECT ${names} FROM read_json(${sqlText(fresh)}, format = 'newline_delimited', columns = {${columns}})`];
  // DuckDB first: when it cannot be loaded, no temporary file is left beside the output.
  const c = await duck();
  try {
    await writeFile(fresh, lines.join(''));
    if (existsSync(out)) {
      const gone = [...replaced].map(sqlText).join(', ');
      // An output of an older index lacks the newer columns (num_trials): its rows kept get NULL there.
      const has = await parquetColumns(c, out);
      const old = INDEX_COLUMNS.map(([k, t]) =>
        k === 'file' && renames.size > 0 ? `COALESCE(m.now, t."file") AS "file"` : has.has(k) ? `t."${k}"` : `NULL::${t} AS "${k}"`,
      ).join(', ');
      // An older index's names for files found now, renamed (a join on the pairs).
      const rename =
        renames.size > 0
          ? ` LEFT JOIN (VALUES ${[...renames].map(([a, b]) => `(${sqlText(a)}, ${sqlText(b)})`).join(', ')}) AS m(was, now) ON t."file" = m.was`
          : '';
      parts.unshift(`SELECT ${old} FROM read_parquet(${sqlText(out)}) AS t${rename}${replaced.size > 0 ? ` WHERE t."file" NOT IN (${gone})` : ''}`);
    }
    await c.run(`COPY (${parts.join(' UNION ALL ')} ORDER BY file, "index") TO ${sqlText(tmp)} (FORMAT parquet)`);
    await rename(tmp, out);
  } finally {
    c.closeSync();
    await rm(fresh, { force: true });
    await rm(tmp, { force: true });
  }
}
