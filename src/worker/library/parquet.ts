import type { LibraryTable } from '../../protocol/wire-types';
import { withFile } from './duckdb';
import { TableBuilder, type LibraryRow } from './table-builder';

/** The columns of `tau-inspect index` the library reads (src/cli/library/index-row.ts). */
const REQUIRED = ['file', 'index', 'benchmark', 'domain', 'task_id', 'trial', 'recorded_reward', 'reward', 'content_hash', 'error'] as const;
const OPTIONAL = ['model', 'user_model', 'data_version', 'termination', 'matches_recorded_reward', 'finding_kinds'] as const;

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

interface Column {
  get(i: number): unknown;
}

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const int = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);
const real = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);

/**
 * A `runs.parquet` (one row per episode, as `tau-inspect index` writes it) read with DuckDB-Wasm into the
 * library's columns. A file that is not Parquet, or lacks a column the library needs, is refused in words.
 */
export async function readLibraryParquet(file: Blob | Uint8Array): Promise<LibraryTable> {
  return withFile(file, async (conn, name) => {
    const source = `read_parquet('${name}')`;
    let columns: Set<string>;
    try {
      const described = await conn.query(`DESCRIBE SELECT * FROM ${source}`);
      const names = described.getChild('column_name') as Column | null;
      columns = new Set(Array.from({ length: described.numRows }, (_, i) => String(names?.get(i))));
    } catch (e) {
      throw new Error(`not a Parquet file DuckDB can read (${(e as Error).message.split('\n')[0]})`);
    }
    const missing = REQUIRED.filter((c) => !columns.has(c));
    if (missing.length > 0) throw new Error(`it lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}: make it with tau-inspect index`);
    const has = (c: (typeof OPTIONAL)[number]): boolean => columns.has(c);
    const select = [
      ...REQUIRED.filter((c) => c !== 'error').map(quote),
      'error IS NOT NULL AS failed',
      has('model') ? 'model' : 'NULL AS model',
      has('user_model') ? 'user_model' : 'NULL AS user_model',
      has('data_version') ? 'data_version' : 'NULL AS data_version',
      has('termination') ? `termination = 'infrastructure_error' AS infra` : 'false AS infra',
      has('matches_recorded_reward') ? 'matches_recorded_reward = false AS disagree' : 'false AS disagree',
      has('finding_kinds') ? `list_contains(finding_kinds, 'no-op-reference') AS noop` : 'false AS noop',
    ];
    const t = await conn.query(`SELECT ${select.join(', ')} FROM ${source}`);
    const col = (n: string): Column => t.getChild(n) as Column;
    const c = {
      file: col('file'),
      index: col('index'),
      benchmark: col('benchmark'),
      domain: col('domain'),
      task: col('task_id'),
      trial: col('trial'),
      recorded: col('recorded_reward'),
      reward: col('reward'),
      hash: col('content_hash'),
      failed: col('failed'),
      model: col('model'),
      userModel: col('user_model'),
      dataVersion: col('data_version'),
      infra: col('infra'),
      disagree: col('disagree'),
      noop: col('noop'),
    };
    const out = new TableBuilder(t.numRows);
    for (let i = 0; i < t.numRows; i++) {
      const row: LibraryRow = {
        run: {
          file: text(c.file.get(i)) ?? '',
          benchmark: text(c.benchmark.get(i)) ?? '',
          domain: text(c.domain.get(i)),
          model: text(c.model.get(i)),
          userModel: text(c.userModel.get(i)),
          dataVersion: text(c.dataVersion.get(i)),
          contentHash: text(c.hash.get(i)) ?? '',
        },
        index: int(c.index.get(i)) ?? i,
        task: text(c.task.get(i)),
        trial: int(c.trial.get(i)),
        recorded: real(c.recorded.get(i)),
        reward: real(c.reward.get(i)),
        error: c.failed.get(i) === true,
        infrastructure: c.infra.get(i) === true,
        disagree: c.disagree.get(i) === true,
        noopReference: c.noop.get(i) === true,
      };
      out.add(row);
    }
    return out.finish();
  });
}
